#!/usr/bin/env node
// `npm run test:loaded`: the test suite on a machine whose cores are all busy, as on a shared CI
// box. Builds (unloaded, as `npm test` does), then starts one busy-loop process per core (two
// on the 2-core reference box), runs vitest over the whole suite, stops the loops and exits with
// vitest's code. Arguments go to vitest: `npm run test:loaded -- test/cli` loads one folder.
//   TRAVSR_LOAD_PROCESSES=<n>   busy loops to run (default: one per core, at least 2)
//   TRAVSR_LOAD_SKIP_BUILD=1    reuse the current build
//   TRAVSR_TEST_WORKERS=<n>     vitest forks (default: one per core, not vitest.config.ts's spare
//                               one: on cores that are already full, more forks only stretch each test)
//   TRAVSR_TEST_CLI=<mode>      how tests run the CLI (test/helpers/run-cli.ts): `process` by default
//                               here, every command a real `node host/bin/run.js` as users run it,
//                               where `npm test` runs most of them inside the test's process
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const vitestBin = join(root, 'node_modules/vitest/vitest.mjs');

// A loop that burns a core in 100 ms slices. Between slices it checks the IPC channel to this
// runner, so a loop never outlives a runner that was killed without a chance to stop it.
const BUSY_LOOP = `
  process.on('disconnect', () => process.exit(0));
  const spin = () => { const end = Date.now() + 100; while (Date.now() < end); setImmediate(spin); };
  spin();`;

/** Starts `count` busy-loop processes; returns a function that stops them all. */
function startLoad(count) {
  const loops = [];
  for (let i = 0; i < count; i++) {
    loops.push(spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] }));
  }
  return () => {
    for (const loop of loops) if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
  };
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (!process.env.TRAVSR_LOAD_SKIP_BUILD) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`test:loaded: the build failed (exit ${build.status ?? build.signal}); fix it before testing`);
    process.exit(build.status ?? 1);
  }
}

const workers = process.env.TRAVSR_TEST_WORKERS ?? String(availableParallelism());
const count = Number(process.env.TRAVSR_LOAD_PROCESSES) || Math.max(2, availableParallelism());
console.log(
  `test:loaded: ${count} busy-loop processes, ${workers} vitest forks, the CLI ${(process.env.TRAVSR_TEST_CLI ?? 'process') === 'process' ? 'as processes' : 'in-process'}; load average before: ${load()}`,
);
const stopLoad = startLoad(count);
const started = Date.now();
const vitest = spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { TRAVSR_TEST_CLI: 'process', ...process.env, TRAVSR_TEST_WORKERS: workers },
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    vitest.kill(signal);
    stopLoad();
  });
}

vitest.on('exit', (code, signal) => {
  stopLoad();
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `test:loaded: vitest ${signal ? `killed by ${signal}` : `exited ${code}`} after ${seconds} s under ${count} busy loops; load average: ${load()}`,
  );
  process.exit(code ?? 1);
});
