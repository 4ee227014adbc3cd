// Inputs of the `rust-accuracy` benchmark, none committed: Debian's rustc 1.63 and cargo (the
// last rustc whose -Zsave-analysis writes every definition and every resolved reference), the
// crates' sources from Debian's librust-*-dev packages (a local cargo registry in
// /usr/share/cargo/registry), copies of them in temp directories, and the reference derived from
// save-analysis, cached per crate version in test/bench/.cache/rust-accuracy/ (ignored by git).
//
// rustup's rustc, when installed, comes first on PATH and no longer knows -Zsave-analysis: every
// cargo here runs with PATH=/usr/bin:/bin and RUSTC=/usr/bin/rustc, RUSTC_BOOTSTRAP=1 to allow a
// -Z flag on a stable compiler, and a CARGO_HOME of its own whose config.toml replaces crates.io
// with the Debian directory (offline), so nothing is downloaded and ~/.cargo is never touched.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { benchDir, log, tempDir } from './common.js';
import { countLines, git } from './lua-corpus.js';
import { runMeasured } from './ts-accuracy-corpus.js';
import { deriveTruth, loadSaveAnalysis } from './rust-accuracy-truth.js';

/**
 * The corpora: the crate, the Debian package shipping its sources, its library's name in rustc.
 * regex, serde_json and clap are issue 18's examples; aho-corasick (regex's dependency, by another
 * author) is one the issue does not name, as its "checked on a crate not in this issue" asks.
 */
export const RUST_CORPORA = [
  { name: 'regex', deb: 'librust-regex-dev', ident: 'regex' },
  { name: 'serde_json', deb: 'librust-serde-json-dev', ident: 'serde_json' },
  { name: 'clap', deb: 'librust-clap-dev', ident: 'clap' },
  { name: 'aho-corasick', deb: 'librust-aho-corasick-dev', ident: 'aho_corasick', notInIssue: true },
];

export const REGISTRY = '/usr/share/cargo/registry';
const RUSTC = '/usr/bin/rustc';
const CARGO = '/usr/bin/cargo';
export const cacheDir = join(benchDir, '.cache', 'rust-accuracy');
const cargoHome = join(cacheDir, 'cargo-home');
/** Changes when the code deriving the reference changes, so that a cached reference is derived again. */
const DERIVER_FILES = ['rust-accuracy-truth.js', 'rust-accuracy-source.js'];

const installHint = (debs) => `apt-get install ${['rustc', 'cargo', ...debs].join(' ')}`;

// ---- prerequisites ----

/** Why Debian's rustc and cargo cannot make the reference, or undefined. */
function toolchainProblem() {
  if (!existsSync(RUSTC) || !existsSync(CARGO)) return `${RUSTC} or ${CARGO} is missing`;
  try {
    const version = execFileSync(RUSTC, ['--version'], { env: cargoEnv(), encoding: 'utf8' }).trim();
    const help = execFileSync(RUSTC, ['-Z', 'help'], { env: cargoEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (!help.includes('save-analysis'))
      return `${RUSTC} (${version}) has no -Zsave-analysis (removed after rustc 1.63); Debian 12's rustc has it`;
  } catch (e) {
    return `${RUSTC} -Z help failed: ${e.message.split('\n')[0]}`;
  }
  return undefined;
}

/** Why the reference cannot be built for `corpora` (the fix included), or undefined. */
export function prerequisiteProblem(corpora) {
  const missing = corpora.filter((c) => !registryDir(c));
  const toolchain = toolchainProblem();
  if (!toolchain && missing.length === 0) return undefined;
  const what = [toolchain, missing.length > 0 ? `no sources of ${missing.map((c) => c.name).join(', ')} in ${REGISTRY}` : undefined];
  return `${what.filter(Boolean).join('; ')}: run \`${installHint(RUST_CORPORA.map((c) => c.deb))}\` (Debian 12)`;
}

/** `rustc 1.63.0` and `cargo 1.65.0`: what made the reference. */
export function toolchainVersions() {
  const v = (bin) => execFileSync(bin, ['--version'], { env: cargoEnv(), encoding: 'utf8' }).trim().split(' (')[0];
  return `${v(RUSTC)}, ${v(CARGO)}`;
}

// ---- the crates ----

/** Compares dotted versions numerically (`1.10.0` after `1.9.2`). */
function compareVersions(a, b) {
  const pa = a.split(/[.+-]/).map((x) => Number(x) || 0);
  const pb = b.split(/[.+-]/).map((x) => Number(x) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The newest `<name>-<version>` directory of a corpus in the Debian registry: `{ dir, version }`, or undefined. */
export function registryDir(corpus) {
  if (!existsSync(REGISTRY)) return undefined;
  const re = new RegExp(`^${corpus.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+\\.\\d+\\.\\d+\\S*)$`);
  const versions = readdirSync(REGISTRY)
    .map((e) => re.exec(e)?.[1])
    .filter(Boolean)
    .sort(compareVersions);
  const version = versions.at(-1);
  return version ? { dir: join(REGISTRY, `${corpus.name}-${version}`), version } : undefined;
}

/**
 * The Cargo.toml without its `[dev-dependencies]` tables (target-specific ones too): Debian's
 * registry lacks most dev-only crates, and cargo resolves them even for `--lib`.
 */
export function withoutDevDependencies(manifest) {
  let skip = false;
  const kept = [];
  for (const line of manifest.split('\n')) {
    const header = /^\s*\[\[?([^\]]+)\]\]?\s*$/.exec(line);
    if (header) skip = /(^|\.)dev-dependencies(\.|$)/.test(header[1]);
    if (!skip) kept.push(line);
  }
  return kept.join('\n');
}

/**
 * A git repository in a temp directory holding a copy of the crate (one commit), its Cargo.toml
 * without dev-dependencies so that cargo can build it offline. travsr indexes it, cargo checks
 * it: the same sources. Returns `{ repo, files, lines }` (the `.rs` files and their lines).
 */
export function crateRepo(corpus, prefix) {
  const { dir } = registryDir(corpus);
  const repo = join(tempDir(prefix), corpus.name);
  cpSync(dir, repo, { recursive: true, verbatimSymlinks: true });
  const manifest = join(repo, 'Cargo.toml');
  writeFileSync(manifest, withoutDevDependencies(readFileSync(manifest, 'utf8')));
  git(repo, ['init', '-q']);
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'corpus']);
  return { repo, ...rustStats(repo) };
}

/** `.rs` files and lines under `dir` (as the indexer counts lines). */
export function rustStats(dir) {
  let files = 0;
  let lines = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git' || e.name === '.travsr' || e.name === 'target') continue;
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile() && e.name.endsWith('.rs')) {
        files++;
        lines += countLines(readFileSync(join(d, e.name), 'utf8'));
      }
    }
  };
  walk(dir);
  return { files, lines };
}

// ---- cargo ----

/** The environment of every cargo and rustc run here (no RUSTFLAGS, no rustup, no ~/.cargo). */
export function cargoEnv(extra = {}) {
  return {
    PATH: '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
    LANG: 'C.UTF-8',
    CARGO_HOME: cargoHome,
    RUSTC,
    RUSTC_BOOTSTRAP: '1',
    CARGO_TERM_COLOR: 'never',
    ...extra,
  };
}

/** Writes the CARGO_HOME config: crates.io replaced by the Debian registry, no network. */
function ensureCargoHome() {
  mkdirSync(cargoHome, { recursive: true });
  writeFileSync(
    join(cargoHome, 'config.toml'),
    `[source.crates-io]\nreplace-with = "debian"\n\n[source.debian]\ndirectory = "${REGISTRY}"\n\n[net]\noffline = true\n`,
  );
}

/**
 * Runs cargo in `repo` with `args` (measured: wall, peak RSS and CPU of the cargo process);
 * throws with cargo's last lines when it fails.
 */
export async function runCargo(repo, args, { env = {}, timeoutMs = 1_800_000 } = {}) {
  ensureCargoHome();
  const r = await runMeasured(CARGO, args, { cwd: repo, env: cargoEnv(env), timeoutMs });
  if (r.code !== 0) throw new Error(`cargo ${args.join(' ')} exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return r;
}

// ---- the reference ----

/** A hash of the code deriving the reference. */
function deriverHash() {
  const h = createHash('sha256');
  for (const f of DERIVER_FILES) h.update(readFileSync(join(benchDir, f)));
  return h.digest('hex').slice(0, 16);
}

/**
 * The save-analysis JSON of the crate's library (gzipped in the cache; built on first use with
 * `cargo rustc --lib --profile check -- -Zsave-analysis`, the flag given to the crate's own
 * rustc only, its dependencies checked as usual).
 */
async function saveAnalysis(corpus, version, dir) {
  const file = join(dir, 'save-analysis.json.gz');
  if (existsSync(file)) return JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  log(`rust-accuracy: ${corpus.name} ${version}: cargo rustc -- -Zsave-analysis (rustc 1.63, once; cached)…`);
  const { repo } = crateRepo(corpus, `rust-sa-${corpus.name}`);
  const target = tempDir(`rust-sa-target-${corpus.name}`);
  await runCargo(repo, ['rustc', '-j1', '--lib', '-q', '--profile', 'check', '--target-dir', target, '--', '-Zsave-analysis']);
  const json = loadSaveAnalysis(join(target, 'debug', 'deps', 'save-analysis'), corpus.ident);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, gzipSync(JSON.stringify(json)));
  return json;
}

/**
 * The reference of a corpus (see rust-accuracy-truth.js): read from the cache when it was
 * derived from this crate version by this code, else derived again from the cached
 * save-analysis JSON (built on first use). Returns `{ truth, version, cached }`.
 */
export async function rustTruth(corpus) {
  const { dir: sources, version } = registryDir(corpus);
  const dir = join(cacheDir, `${corpus.name}-${version}`);
  const file = join(dir, 'truth.json');
  const deriver = deriverHash();
  if (existsSync(file)) {
    const cached = JSON.parse(readFileSync(file, 'utf8'));
    if (cached.deriver === deriver) return { truth: cached, version, cached: true };
  }
  const sa = await saveAnalysis(corpus, version, dir);
  // Read from the registry: the files rustc compiled (the copy differs only in Cargo.toml).
  const truth = { deriver, crate: corpus.name, version, ...deriveTruth(sa, sources) };
  writeFileSync(file, JSON.stringify(truth));
  return { truth, version, cached: false };
}
