import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * NODE_EXTRA_CA_CERTS (a machine's TLS-inspecting proxy, say) makes every Node.js process read
 * and parse that certificate file as it starts: about 50 ms of CPU on the 2-core box, paid again
 * by each of the hundreds of CLI processes, hooks and daemons the tests start, which reach
 * nothing but 127.0.0.1. The forks and everything they start run without it; the one test that
 * goes to the npm registry (test/package/npm-install.test.ts) takes it back from
 * TRAVSR_TEST_EXTRA_CA_CERTS.
 */
if (process.env.NODE_EXTRA_CA_CERTS) {
  process.env.TRAVSR_TEST_EXTRA_CA_CERTS = process.env.NODE_EXTRA_CA_CERTS;
  delete process.env.NODE_EXTRA_CA_CERTS;
}

/**
 * Test files run in parallel forks, one more than there are cores. Most end-to-end tests wait
 * on child processes (the CLI, git, bwrap sandboxes, plugins) and on timers they must wait out,
 * so one spare fork fills the time a core would idle: on the 2-core box 3 forks ran the suite
 * in 229 s against 289 s for 2, and 4 forks took longer again (245 s) by stretching every test.
 * TRAVSR_TEST_WORKERS (or `--maxWorkers`) overrides the number; `npm run test:loaded` runs one
 * fork per core, since on cores that are already full a spare fork only stretches each test.
 */
const workers = Number(process.env.TRAVSR_TEST_WORKERS) || availableParallelism() + 1;

/**
 * The packages' own tests run in-process, and nearly all of them leave no state behind: they
 * share their forks (`isolate: false`), which saves starting a fork and importing the modules
 * again for each of some 180 files (about a second each). test/restore-process-state.ts puts
 * back process.env, the working directory and spies after every file. Files that depend on
 * the state of a fresh process, or set some for the whole process, keep a fork of their own.
 * The end-to-end files of test/ share their forks the same way ('e2e-shared'): they import the
 * helpers, execa and the registry once per fork instead of once per file (the suite's summed
 * import time went from 90 s to 58 s, the whole run from 582 s to 541 s on the 2-core box).
 * Vitest queues the projects by name, each longest file first: 'e2e-shared', which holds the
 * long end-to-end files, goes first, and the many short shared-fork files fill the end.
 */
const inProcess = [
  'protocol/test/**/*.test.ts',
  'sdk/test/**/*.test.ts',
  'registry/test/**/*.test.ts',
  'host/test/**/*.test.ts',
  'plugins/*/test/**/*.test.ts',
];
const freshProcess = [
  // msgpackr's native decoder loads once per process, after a number of decoded bytes.
  'protocol/test/frame/native-decoder.test.ts',
  // Sets a V8 flag (--liftoff-only) for the whole process.
  'plugins/lang-structural/test/grammar-state.test.ts',
  // git-fixture.ts sets the git environment once, when first imported.
  'host/test/git/commit-diff.test.ts',
  'host/test/git/hook-installer.test.ts',
  'host/test/git/repo.test.ts',
  'host/test/daemon/head-watcher.test.ts',
];

/**
 * V8 coverage of every package's source, on when TRAVSR_COVERAGE=1 (CI sets it for `npm test`;
 * see CONTRIBUTING.md). What child processes run — the CLI, plugins in their sandboxes — is not
 * counted, only what the test files run in Vitest's own processes. `npm run coverage:check`
 * prints the figures per package from coverage/coverage-summary.json and fails below the floors
 * of test/coverage/floors.json.
 */
const coverage = {
  enabled: process.env.TRAVSR_COVERAGE === '1',
  provider: 'v8' as const,
  include: ['protocol/src/**/*.ts', 'sdk/src/**/*.ts', 'registry/src/**/*.ts', 'host/src/**/*.ts', 'plugins/*/src/**/*.ts'],
  exclude: ['**/*.d.ts', '**/node_modules/**'],
  reporter: ['json-summary'],
  reportsDirectory: 'coverage',
};

export default defineConfig({
  test: {
    coverage,
    exclude: ['**/node_modules/**', 'test/bench/**'],
    setupFiles: ['test/setup-env.ts'],
    pool: 'forks',
    maxWorkers: workers,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The CLI's bundle runs in the test processes as built (test/helpers/run-cli.ts), not
    // transformed again by Vite: Node imports it, as bin/run.js does.
    server: { deps: { external: [/\/host\/dist\/bundle\//] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-fork',
          include: inProcess,
          exclude: ['**/node_modules/**', ...freshProcess],
          isolate: false,
          setupFiles: ['test/restore-process-state.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e-shared',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'test/bench/**', ...freshProcess],
          isolate: false,
          setupFiles: ['test/restore-process-state.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'fork-per-file',
          include: freshProcess,
          exclude: ['**/node_modules/**', 'test/bench/**'],
        },
      },
    ],
  },
});
