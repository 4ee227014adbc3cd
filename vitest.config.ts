import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run in parallel forks, one per core. The suite is CPU-bound even though most tests
 * wait on child processes: those children (the CLI, git, bwrap sandboxes, plugins) are what
 * computes. On the 2-core box, 4 forks finished files no faster than vitest's default of
 * (cores − 1) = 1 and stretched every test about fourfold towards its timeout.
 * TRAVSR_TEST_WORKERS (or `--maxWorkers`) overrides the number.
 */
const workers = Number(process.env.TRAVSR_TEST_WORKERS) || availableParallelism();

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
