import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'protocol/test/**/*.test.ts',
      'sdk/test/**/*.test.ts',
      'registry/test/**/*.test.ts',
      'host/test/**/*.test.ts',
      'plugins/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'test/bench/**'],
    setupFiles: ['test/setup-env.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
