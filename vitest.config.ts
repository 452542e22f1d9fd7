import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: { name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/workerd/**'] },
      },
      // Inside workerd, the Workers runtime (docs/edge.md).
      'test/workerd/vitest.config.ts',
    ],
  },
});
