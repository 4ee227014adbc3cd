#!/usr/bin/env node
// Packs what a user installs with `npm i -g travsr` (README "Install from npm"), into release/ at
// the repository root, and reports its size:
//
//   release/travsr-<v>.tgz           the CLI: the built host (bin/, dist/ without source maps,
//                                    the command manifest, templates/), the signed built-in
//                                    registry holding every first-party plugin, sandbox-profiles/,
//                                    and the three workspace packages it runs on (@travsr/protocol,
//                                    @travsr/registry, @travsr/sdk) bundled inside it with what
//                                    they load, so the one tarball is the whole of Travsr; the
//                                    host's own dependencies are ordinary runtime dependencies npm
//                                    installs (no TypeScript or vitest; esbuild only for
//                                    `plugin new|pack`, which bundle a plugin).
//   release/travsr-<v>.cdx.json      the CLI's CycloneDX SBOM: every package esbuild merged into
//                                    dist/bundle/ (from its record, dist/bundle/build-record.json),
//                                    every package inside the tarball, and every runtime dependency
//                                    npm installs with it, at the version this checkout's lockfile
//                                    resolved.
//   release/travsr-sdk-<v>.tgz       @travsr/sdk, for plugin authors (`travsr plugin new` depends
//   release/travsr-protocol-<v>.tgz  on its registry version) and the protocol package it needs.
//
// The tarball is made by `npm pack` from a staging directory: host/package.json without its
// scripts, `bundleDependencies` naming the three workspace packages, node_modules/@travsr/*
// holding exactly what `npm pack` would publish of each, and beside them the packages they
// depend on, copied from this checkout's node_modules (npm takes a bundled package's
// dependencies from the bundle); their optional dependencies, built per platform, become the
// CLI's own instead.
// Run by `npm run build` (skipped when nothing it reads changed); `npm run package` forces nothing
// more, it is the same step.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { buildSbom, npmPurl, sbomPathFor } from '@travsr/registry';
import { BUILD_RECORD_FILE, buildIfChanged, lockfiles } from '@travsr/sdk/build';

const hostDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(hostDir, '..');
const outDir = join(root, 'release');
/** The workspace packages the CLI runs on, shipped inside its tarball. */
const BUNDLED = [
  { name: '@travsr/protocol', dir: join(root, 'protocol') },
  { name: '@travsr/registry', dir: join(root, 'registry') },
  { name: '@travsr/sdk', dir: join(root, 'sdk') },
];
/** Published on their own beside the CLI: the SDK plugin authors depend on, and its protocol package. */
const STANDALONE = ['protocol', 'sdk'];
/** Left out of the CLI's tarball: source maps (two thirds of dist/ by size) and tsc's incremental state. */
const LEFT_OUT = /(\.map|\.tsbuildinfo)$/;
/** The staging directory of the current pack. */
let stageRoot;

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
// npm is npm.cmd on Windows, which Node runs only through a shell.
const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
/** The files `npm pack` would publish from `dir` (its `files` field, package.json, README…). */
const packedFiles = (dir) => JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], dir))[0].files.map((f) => f.path);

/** What a workspace package publishes, as build inputs: package.json, README.md and its `files`. */
function publishedInputs(dir) {
  const manifest = readJson(join(dir, 'package.json'));
  return ['package.json', 'README.md', ...(manifest.files ?? [])].map((f) => join(dir, f)).filter((f) => existsSync(f));
}

// The model runner (plugins/model-onnx's dist/runner: runner.mjs and ONNX Runtime's WebAssembly),
// which `travsr model add` copies into a model plugin made from a model directory.
const MODEL_RUNNER = join(root, 'plugins', 'model-onnx', 'dist', 'runner');

const step = {
  name: 'npm release',
  root: hostDir,
  inputs: [
    fileURLToPath(import.meta.url),
    join(root, 'package.json'),
    join(root, 'README.md'),
    join(root, 'sandbox-profiles'),
    join(hostDir, 'package.json'),
    join(hostDir, 'bin'),
    join(hostDir, 'dist'),
    join(hostDir, 'templates'),
    join(hostDir, 'builtin-registry'),
    join(hostDir, 'oclif.manifest.json'),
    MODEL_RUNNER,
    // Everything each bundled package publishes (its `files`: the protocol's schemas, .proto and
    // validators too) and the lockfile, which decides the third-party packages bundled with them.
    ...BUNDLED.flatMap((p) => publishedInputs(p.dir)),
    ...lockfiles(root),
  ],
  outputs: [outDir],
  skip: [join(hostDir, 'dist', '.tsbuildinfo')],
};
await buildIfChanged(step, pack);

async function pack() {
  for (const needed of ['dist/bundle/.bundled', `dist/bundle/${BUILD_RECORD_FILE}`, 'oclif.manifest.json', 'builtin-registry/SHA256SUMS']) {
    if (!existsSync(join(hostDir, needed))) {
      console.error(`pack-release: host/${needed} is missing; run \`npm run build\` first`);
      process.exit(1);
    }
  }
  const t0 = performance.now();
  const stage = mkdtempSync(join(tmpdir(), 'travsr-release-'));
  stageRoot = stage;
  try {
    const host = readJson(join(hostDir, 'package.json'));
    const copy = (from, files, to) => {
      for (const file of files) {
        if (LEFT_OUT.test(file)) continue;
        mkdirSync(dirname(join(to, file)), { recursive: true });
        cpSync(join(from, file), join(to, file));
      }
    };
    copy(hostDir, packedFiles(hostDir), stage);
    cpSync(join(root, 'README.md'), join(stage, 'README.md'));
    cpSync(join(root, 'sandbox-profiles'), join(stage, 'sandbox-profiles'), { recursive: true });
    if (!existsSync(join(MODEL_RUNNER, 'runner.mjs'))) fail(`${MODEL_RUNNER} is not built; run npm run build`);
    cpSync(MODEL_RUNNER, join(stage, 'model-runner'), { recursive: true });

    // The three workspace packages and everything they load, as installed here (their
    // non-optional dependencies, transitively): npm takes a bundled package's dependencies from
    // the bundle, never from the registry, so they must all be inside.
    const dependencies = { ...host.dependencies };
    const bundled = new Map(); // source directory → directory in the stage
    const optionalDependencies = {};
    const withoutOptional = new Set(); // bundled packages whose optional dependencies move to the CLI
    const visit = (name, from, where) => {
      const dir = resolvePackage(name, from);
      if (dir === undefined) fail(`${name} (needed by ${where}) is not installed; run \`npm ci\``);
      if (bundled.has(dir)) return;
      bundled.set(dir, stagePathOf(dir, name));
      const manifest = readJson(join(dir, 'package.json'));
      // This machine's build of a native module must not ship: such a package is a dependency
      // npm installs (and builds) on the user's machine, not a bundled one.
      const scripts = manifest.scripts ?? {};
      if (manifest.gypfile || existsSync(join(dir, 'binding.gyp')) || scripts.install || scripts.preinstall || scripts.postinstall)
        fail(
          `${manifest.name} (needed by ${where}) has a native build or an install script, so it cannot be bundled; make it a dependency of the host instead`,
        );
      // A bundled package at the top of node_modules that the host also depends on must be the
      // version the host names: both resolve to that one copy.
      const wanted = host.dependencies[manifest.name];
      const topLevel = bundled.get(dir) === join(stageRoot, 'node_modules', manifest.name);
      if (topLevel && wanted !== undefined && !BUNDLED.some((b) => b.name === manifest.name) && wanted !== manifest.version)
        fail(`${manifest.name}: the host depends on ${wanted}, but ${manifest.version} is what the bundle would hold; use one version`);
      for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir, manifest.name);
      // Optional ones are platform-specific (msgpackr's native decoder): not copied from this
      // machine, but optional dependencies of the CLI, which npm installs for the user's platform
      // at the version installed here. They leave the bundled package's manifest (see
      // withoutOptionalDependencies): npm treats everything a bundled package depends on as part
      // of the bundle and would leave an empty directory for each of them, and for what they
      // depend on — detect-libc among them, which better-sqlite3's prebuilt-binary download
      // needs, so a user's install compiled SQLite instead, or failed without a compiler.
      if (manifest.optionalDependencies !== undefined) withoutOptional.add(dir);
      for (const dep of Object.keys(manifest.optionalDependencies ?? {})) {
        const found = resolvePackage(dep, dir);
        if (found === undefined) continue;
        const version = readJson(join(found, 'package.json')).version;
        if (optionalDependencies[dep] !== undefined && optionalDependencies[dep] !== version)
          fail(
            `optional dependency ${dep} is installed at two versions (${optionalDependencies[dep]}, ${version}); dedupe it (npm dedupe)`,
          );
        optionalDependencies[dep] = version;
      }
    };
    for (const pkg of BUNDLED) visit(pkg.name, hostDir, host.name);
    // What npm installs beside the CLI: the host's dependencies and theirs, as installed here.
    const installed = new Set();
    const visitInstalled = (name, from) => {
      const dir = resolvePackage(name, from);
      if (dir === undefined || bundled.has(dir) || installed.has(dir)) return;
      installed.add(dir);
      const m = readJson(join(dir, 'package.json'));
      for (const dep of [...Object.keys(m.dependencies ?? {}), ...Object.keys(m.optionalDependencies ?? {})]) visitInstalled(dep, dir);
    };
    for (const dep of Object.keys(host.dependencies)) if (!BUNDLED.some((b) => b.name === dep)) visitInstalled(dep, hostDir);
    for (const dep of Object.keys(optionalDependencies)) visitInstalled(dep, hostDir);
    for (const [dir, to] of bundled) {
      copy(dir, BUNDLED.some((p) => p.dir === dir) ? packedFiles(dir) : publishedFiles(dir), to);
      if (withoutOptional.has(dir)) withoutOptionalDependencies(join(to, 'package.json'));
    }
    const rootManifest = readJson(join(root, 'package.json'));
    const manifest = {
      name: host.name,
      version: host.version,
      description: rootManifest.description,
      keywords: ['mcp', 'model-context-protocol', 'code-graph', 'code-intelligence', 'call-graph', 'ai-agents'],
      type: host.type,
      license: host.license,
      engines: rootManifest.engines,
      bin: host.bin,
      exports: host.exports,
      files: [...host.files, 'sandbox-profiles', 'model-runner'],
      oclif: host.oclif,
      dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))),
      optionalDependencies,
      bundleDependencies: BUNDLED.map((p) => p.name),
    };
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const [cli] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], stage));
    const bom = buildSbom(
      { name: host.name, version: host.version, licence: host.license, purl: npmPurl(host.name, host.version) },
      readJson(join(hostDir, 'dist', 'bundle', BUILD_RECORD_FILE)),
      hostDir,
      {
        packages: [
          ...[...bundled.keys()].map((dir) => ({ dir, shippedAs: 'packaged' })),
          ...[...installed].map((dir) => ({ dir, shippedAs: 'npm-dependency' })),
        ],
      },
    );
    writeFileSync(sbomPathFor(join(outDir, cli.filename)), `${JSON.stringify(bom, null, 2)}\n`);
    const standalone = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', outDir, ...STANDALONE.flatMap((w) => ['-w', w])], root),
    );
    writeFileSync(join(outDir, 'SIZE.txt'), sizeReport([cli, ...standalone]));
    process.stdout.write(sizeReport([cli, ...standalone]));
    console.log(`pack-release: ${relative(process.cwd(), outDir) || '.'}/ in ${Math.round(performance.now() - t0)} ms`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * Removes `optionalDependencies` from a bundled package's manifest in the stage (they are the
 * CLI's own optional dependencies now, where the package still finds them: Node resolves them
 * from the CLI's node_modules, the level above). Nothing else in the package changes.
 */
function withoutOptionalDependencies(manifestFile) {
  const { optionalDependencies: _moved, ...rest } = readJson(manifestFile);
  writeFileSync(manifestFile, `${JSON.stringify(rest, null, 2)}\n`);
}

/**
 * Where Node finds package `name` required from directory `from`: `from`/node_modules/`name`,
 * then each parent's, up to the repository root. Returns its real directory (workspace
 * packages are links), or undefined.
 */
function resolvePackage(name, from) {
  for (let dir = from; dir.startsWith(root); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dir === root) break;
  }
  return undefined;
}

/**
 * A bundled package's place in the stage, mirroring where it is installed here so that Node
 * resolves the same copies: `node_modules/x` stays `node_modules/x`, a workspace package
 * (`protocol/`) becomes `node_modules/@travsr/protocol`, and what is nested below either moves
 * with it.
 */
function stagePathOf(dir, name) {
  const rel = relative(root, dir);
  if (rel.startsWith('node_modules')) return join(stageRoot, rel);
  const workspace = BUNDLED.find((p) => dir === p.dir || dir.startsWith(p.dir + sep));
  if (workspace === undefined) throw new Error(`pack-release: ${name} resolves to ${dir}, outside node_modules and the bundled workspaces`);
  return join(stageRoot, 'node_modules', workspace.name, relative(workspace.dir, dir));
}

/** The files of a package installed from the registry: all of them but its own node_modules (nested packages are bundled on their own). */
function publishedFiles(dir) {
  const out = [];
  const walk = (rel) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel === '' && entry.name === 'node_modules') continue;
        walk(path);
      } else if (entry.isFile()) out.push(path);
    }
  };
  walk('');
  return out;
}

/** Stops the pack with a message (the staging directory is removed by the caller's finally). */
function fail(message) {
  throw new Error(`pack-release: ${message}`);
}

/** The size of each tarball, and of the CLI's parts (what a user downloads, and where it goes). */
function sizeReport(packs) {
  const mib = (n) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const lines = ['package                          tarball   unpacked   files'];
  for (const p of packs)
    lines.push(
      `${p.filename.padEnd(32)} ${mib(p.size).padStart(9)} ${mib(p.unpackedSize).padStart(10)} ${String(p.entryCount).padStart(7)}`,
    );
  const parts = new Map();
  for (const f of packs[0].files) {
    const segments = f.path.split('/');
    const depth = segments[0] === 'node_modules' ? (segments[1]?.startsWith('@') ? 3 : 2) : segments[0] === 'dist' ? 2 : 1;
    const key = segments.slice(0, depth).join('/');
    parts.set(key, (parts.get(key) ?? 0) + f.size);
  }
  lines.push('', `${packs[0].filename}, unpacked, by part:`);
  for (const [part, bytes] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 12))
    lines.push(`  ${part.padEnd(34)} ${mib(bytes).padStart(9)}`);
  lines.push(
    '  (its runtime dependencies come from the npm registry at install: `npm ls -g --all` lists them;',
    `   ${packs[0].filename.replace(/\.tgz$/, '.cdx.json')} is the SBOM of all of it)`,
    '',
  );
  return lines.join('\n');
}
