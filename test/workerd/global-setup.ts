import type { TestProject } from 'vitest/node';
import { startFixtureControl } from './fixture-control.js';
import { dropRuntimeNoise } from './runtime-noise.js';

/**
 * Runs in Node before the workerd suites: the fixture service (fixture-control.ts) on 127.0.0.1,
 * whose URL the tests inside workerd read with `inject('fixtureControl')`; and the runtime's
 * reports of refused connections kept off the output (runtime-noise.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  dropRuntimeNoise();
  const control = await startFixtureControl();
  project.provide('fixtureControl', control.url);
  return () => control.close();
}
