#!/usr/bin/env node
// Bundles the CLI's commands into dist/bundle/: one module per command (dist/bundle/commands/…,
// the paths oclif's manifest points at) plus shared chunks, with the host's own modules and the
// pure-JavaScript dependencies merged in. Node then reads a handful of files at start-up instead
// of some 300 (the host's modules, execa's, msgpackr's…): about 300 ms less CPU per command.
//
// oclif is bundled too, through dist/bundle/execute.js (src/cli/execute.ts), the module
// bin/run.js starts: the commands and oclif then share one copy of it in a chunk.
//
// Left outside the bundle: native modules (better-sqlite3, esbuild, msgpackr-extract), the SDK's
// testing kit (it is the plugin author's, loaded by `plugin test|new` only) and the TypeScript
// loaders oclif looks for in development setups only (typescript, ts-node, tsx). Run by `npm run build -w travsr` after `tsc -b`,
// from tsc's output in dist/ (so the bundle is exactly what the tests compiled). Leaves the
// bundler's record of what went into each bundle in dist/bundle/build-record.json, from which
// scripts/pack-release.mjs writes the release's SBOM.
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, version as esbuildVersion } from 'esbuild';
import { BUILD_RECORD_FILE, buildIfChanged, bundlesOfMetafile, lockfiles, workspaceDependencyInputs } from '@travsr/sdk/build';

const hostDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const commandsDir = join(hostDir, 'dist', 'cli', 'commands');
const outDir = join(hostDir, 'dist', 'bundle');
/** Written last: its mtime says when the bundle was made from dist/ (bin/run.js compares it with tsc's). */
const BUNDLE_STAMP = '.bundled';

const EXTERNAL = ['better-sqlite3', 'esbuild', 'msgpackr-extract', '@travsr/sdk/testing', 'typescript', 'ts-node', 'tsx'];
/** The module bin/run.js imports: oclif's `execute`, bundled with the commands. */
const EXECUTE = join(hostDir, 'dist', 'cli', 'execute.js');
/**
 * The lean entry (`hook-run` and `status` without oclif), which bin/run.js tries first for those
 * commands: one CommonJS file, `lean.cjs`, which bin/run.js compiles from V8's code cache
 * (src/cli/code-cache.ts) — Node 20 caches no compiled code for ES modules.
 */
const LEAN_ENTRY = join(hostDir, 'dist', 'cli', 'lean-entry.js');
const LEAN_BUNDLE = 'lean.cjs';
const LEAN_MCP_BUNDLE = 'lean-mcp.cjs';
// Every command start parses these files: without whitespace and comments V8 has about a third
// less to read and scan (`config get` 238 → 220 ms, `status` 277 → 244 ms, the first answer of
// `mcp` through the daemon ~25 ms sooner). Names stay as written, so stack traces keep them, and
// the linked source maps give the lines.
const MINIFY = { minifyWhitespace: true, minifySyntax: true };

function commandModules(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const abs = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...commandModules(abs));
    else if (entry.name.endsWith('.js')) out.push(abs);
  }
  return out;
}

const entryPoints = commandModules(commandsDir);
if (entryPoints.length === 0) {
  console.error(`bundle-cli: no compiled command under ${relative(process.cwd(), commandsDir)}; run \`npx tsc -b\` first`);
  process.exit(1);
}
// Nothing to do when dist/ and the packages it merges are what they were at the last bundle;
// .bundled is touched all the same, since tsc -b may have rewritten dist/.tsbuildinfo (bin/run.js
// compares the two).
const step = {
  name: 'travsr CLI bundle',
  root: hostDir,
  inputs: [join(hostDir, 'dist'), fileURLToPath(import.meta.url), ...lockfiles(hostDir), ...workspaceDependencyInputs(hostDir)],
  outputs: [outDir],
  skip: [outDir, join(hostDir, 'dist', '.tsbuildinfo')],
};
if (!(await buildIfChanged(step, bundle))) {
  const now = new Date();
  utimesSync(join(outDir, BUNDLE_STAMP), now, now);
}

async function bundle() {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();
  const result = await build({
    entryPoints: [
      ...entryPoints.map((file) => ({ in: file, out: join('commands', relative(commandsDir, file)).replace(/\.js$/, '') })),
      { in: EXECUTE, out: 'execute' },
    ],
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    ...MINIFY,
    // CommonJS dependencies merged into ES modules still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __travsrCreateRequire } from 'node:module';\nconst require = __travsrCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    absWorkingDir: hostDir,
    logLevel: 'warning',
  });
  // The lean entry, whole in one CommonJS file. Its modules find their package's files by
  // walking up from import.meta.url, which here is the bundle's own URL. Two builds of it:
  // `lean.cjs` for `hook-run` and `status`, which leaves gRPC to node_modules (loaded only when a
  // daemon runs: a smaller file to read and deserialize at every start), and `lean-mcp.cjs` for
  // `mcp` through the daemon, with gRPC inside (compiled from the code cache with the rest).
  const GRPC = ['@grpc/grpc-js', 'protobufjs'];
  async function buildLean(outfile, external) {
    const built = await build({
      entryPoints: [LEAN_ENTRY],
      outfile: join(outDir, outfile),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      external,
      define: { 'import.meta.url': '__travsrImportMetaUrl' },
      ...MINIFY,
      banner: { js: "const __travsrImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
      sourcemap: 'linked',
      legalComments: 'none',
      metafile: true,
      absWorkingDir: hostDir,
      logLevel: 'warning',
    });
    // Node 20 cannot serve import() from a script compiled from a code cache ("A dynamic import
    // callback was not specified"): the first run would work and every later one fail.
    const dynamic = Object.entries(built.metafile.inputs).flatMap(([file, input]) =>
      input.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => `${i.path} (from ${file})`),
    );
    if (dynamic.length > 0) {
      console.error(
        `bundle-cli: ${outfile} would load ${dynamic.join(', ')} with import(), which fails when bin/run.js runs it from V8's code cache; import it statically (or require it)`,
      );
      process.exit(1);
    }
    return built;
  }
  const lean = await buildLean(LEAN_BUNDLE, [...EXTERNAL, ...GRPC]);
  const leanMcp = await buildLean(LEAN_MCP_BUNDLE, EXTERNAL);
  for (const [file, o] of Object.entries(leanMcp.metafile.outputs)) result.metafile.outputs[file] = o;
  for (const [file, o] of Object.entries(lean.metafile.outputs)) result.metafile.outputs[file] = o;
  const bytes = Object.entries(result.metafile.outputs)
    .filter(([file]) => /\.c?js$/.test(file))
    .reduce((n, [, o]) => n + o.bytes, 0);
  const record = {
    bundler: { name: 'esbuild', version: esbuildVersion },
    bundles: bundlesOfMetafile(result.metafile, hostDir).filter((b) => Object.keys(b.inputs).length > 0),
    assets: [],
  };
  writeFileSync(join(outDir, BUILD_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(outDir, BUNDLE_STAMP), `${new Date().toISOString()}\n`);
  const files = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length;
  console.log(
    `bundle-cli: ${entryPoints.length} commands → ${relative(process.cwd(), outDir)} (${files} modules, ${(bytes / 1024 / 1024).toFixed(1)} MiB) in ${Math.round(performance.now() - t0)} ms`,
  );
}
