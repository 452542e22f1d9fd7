import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

/**
 * The suites that run inside workerd, the Workers runtime, through @cloudflare/vitest-pool-workers
 * (docs/edge.md): the worker as wrangler.toml builds it, resolving through a fixture DoH endpoint
 * that global-setup.ts starts on 127.0.0.1 in Node.
 */
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: '../../wrangler.toml' } })],
  test: {
    name: 'workerd',
    include: ['**/*.test.ts'],
    globalSetup: ['./global-setup.ts'],
  },
});
