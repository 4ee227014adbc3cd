#!/usr/bin/env node
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
// `travsr --version` answers without loading oclif (about 150 ms of start-up), in oclif's format.
if (args.length === 1 && args[0] === '--version') {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`travsr/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
} else {
  // The commands run from dist/bundle/, made from tsc's output by `npm run build`. A checkout
  // where only `tsc -b` ran since would run the old bundle without a word: say so (two stats).
  const mtime = (rel) => statSync(new URL(rel, import.meta.url), { throwIfNoEntry: false })?.mtimeMs;
  const compiled = mtime('../dist/.tsbuildinfo');
  const bundled = mtime('../dist/bundle/.bundled');
  if (compiled !== undefined && (bundled === undefined || compiled > bundled)) {
    process.emitWarning(
      'host/dist/ was compiled after the CLI bundle was made, so this runs the older code; run `npm run build -w travsr` (tsc, bundle, command manifest)',
      { code: 'TRAVSR_STALE_BUNDLE' },
    );
  }
  // `hook-run` (after every commit), `status` and `mcp` through a running daemon start without oclif (src/cli/lean-entry.ts, whose
  // LEAN_COMMAND_NAMES these are), from V8's code cache in ~/.travsr/cache/v8 (src/cli/code-cache.ts;
  // TRAVSR_CODE_CACHE=0: none); what that entry does not take (--help, an unknown flag) goes on to
  // oclif like any command.
  let exitCode;
  if (args[0] === 'hook-run' || args[0] === 'status' || args[0] === 'mcp') {
    // A reader that stops early (`travsr status | head -1`) closes the pipe: the rest of the
    // output goes nowhere, without a stack trace, as oclif's commands do it.
    process.stdout.on('error', (err) => {
      if (err?.code !== 'EPIPE') throw err;
    });
    const [{ requireWithCodeCache }, { travsrHome }] = await Promise.all([
      import('../dist/cli/code-cache.js'),
      import('../dist/paths/travsr-home.js'),
    ]);
    // `mcp` relays to the daemon: its build of the entry holds the gRPC client too.
    const bundle = args[0] === 'mcp' ? '../dist/bundle/lean-mcp.cjs' : '../dist/bundle/lean.cjs';
    const lean = requireWithCodeCache(fileURLToPath(new URL(bundle, import.meta.url)), {
      dir: join(travsrHome(), 'cache', 'v8'),
      enabled: process.env.TRAVSR_CODE_CACHE !== '0',
      variant: args[0],
    });
    exitCode = await lean.exports.runLeanEntry(args);
    if (exitCode === 0) lean.saveCache();
  }
  if (exitCode !== undefined) process.exitCode = exitCode;
  else {
    // oclif itself is in the bundle (see src/cli/execute.ts); the commands share its copy.
    // NODE_ENV=development or test (common in a developer's shell) would put oclif in its
    // development mode, where it looks for TypeScript sources and loads every command instead of
    // reading the command manifest: about 0.4 s more per command. It means the user's project,
    // not this built tool.
    if (process.env.NODE_ENV === 'development' || process.env.NODE_ENV === 'test') delete process.env.NODE_ENV;
    const { execute } = await import('../dist/bundle/execute.js');
    await execute({ dir: import.meta.url });
  }
}
