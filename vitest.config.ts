import { defineConfig } from 'vitest/config';

/**
 * Test files run in parallel forks. Most of a test's time is spent waiting on child processes
 * (the CLI, git, bwrap sandboxes, plugins), so more forks than cores keeps both cores of a
 * 2-core box busy; vitest's default (cores − 1) ran the files one at a time there.
 * TRAVSR_TEST_WORKERS (or `--maxWorkers`) overrides the number.
 */
const workers = Number(process.env.TRAVSR_TEST_WORKERS) || 4;

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
    maxWorkers: workers,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
