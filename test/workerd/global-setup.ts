import type { TestProject } from 'vitest/node';
import { startFixtureDnsServer } from '../fixtures/dns-server.js';
import { startFixtureDohServer } from '../fixtures/doh-server.js';
import { edgeZones } from './zones.js';

/**
 * Runs in Node before the workerd suites: the fixture DNS world and a DoH endpoint in front of it
 * on 127.0.0.1, whose URL the tests inside workerd read with `inject('dohUrl')`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dns = await startFixtureDnsServer({ zones: edgeZones });
  const doh = await startFixtureDohServer({ dns });
  project.provide('dohUrl', doh.url);
  return async () => {
    await doh.close();
    await dns.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dohUrl: string;
  }
}
