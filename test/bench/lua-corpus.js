// The Lua corpus of the indexing benchmarks: real code written by others, taken from Debian
// packages at bench time (`apt-get download`, `dpkg -x`), cached in test/bench/.cache/ (never
// committed). Without apt or network, a generated corpus stands in, labelled "synthetic".
// Also builds git repositories of a chosen size from the corpus.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { benchDir, log, row, tempDir } from './common.js';

/** Debian packages whose `.lua` files make the corpus: an XMPP server, a library, a package manager. */
export const DEBIAN_PACKAGES = ['prosody', 'lua-penlight', 'luarocks'];

const cacheDir = join(benchDir, '.cache', 'debian-lua');
// No extension: `prettier --check .` walks into the cache and must find nothing to check
// (which is also why only the .lua files of the packages are kept).
const manifestFile = join(cacheDir, 'MANIFEST');
// Bump when the layout of the cache changes, so that an old cache is rebuilt.
const CACHE_FORMAT = 1;

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.org',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.org',
};

/** Runs git in `cwd` with a fixed identity and no signing; returns stdout. */
export function git(cwd, args, env = {}) {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false', ...args], {
    cwd,
    env: { ...process.env, ...GIT_ENV, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
}

/** Lines as the indexer counts them: the `\n` count, plus one when the last line has no `\n`. */
export function countLines(text) {
  if (text.length === 0) return 0;
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n + (text.endsWith('\n') ? 0 : 1);
}

function run(cmd, args, cwd, timeout = 180_000) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout });
}

/** One line: the end of a failed command's stderr, or the error message. */
function errorText(e) {
  const stderr = typeof e?.stderr === 'string' ? e.stderr.trim().split('\n').slice(-2).join(' ') : '';
  return (stderr || (e?.message ?? String(e)).split('\n')[0]).replaceAll('\n', ' ');
}

/** Regular `.lua` files under `dir` (symlinks skipped: Debian links one tree into several Lua versions). */
function luaFilesUnder(dir, base = dir, out = []) {
  for (const name of readdirSync(dir).sort()) {
    const abs = join(dir, name);
    const st = lstatSync(abs);
    if (st.isDirectory()) luaFilesUnder(abs, base, out);
    else if (st.isFile() && name.endsWith('.lua')) out.push(relative(base, abs));
  }
  return out;
}

/**
 * Downloads and unpacks the packages into the cache (once) and lists their `.lua` files.
 * Throws with the reason when apt or the network is not there.
 */
function fetchDebianCorpus() {
  if (existsSync(manifestFile)) {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
    const complete =
      m.format === CACHE_FORMAT &&
      m.packages.map((p) => p.name).join() === DEBIAN_PACKAGES.join() &&
      m.files.every((f) => existsSync(join(cacheDir, f.source)));
    if (complete) return m;
  }
  const debs = join(cacheDir, 'debs');
  mkdirSync(debs, { recursive: true });
  const debOf = (pkg) => readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
  const missing = DEBIAN_PACKAGES.filter((p) => !debOf(p));
  if (missing.length > 0) {
    log(`index corpus: apt-get download ${missing.join(' ')}…`);
    try {
      run('apt-get', ['download', ...missing], debs);
    } catch (first) {
      // Package lists may be missing or stale (a fresh container): refresh once and retry.
      log(`index corpus: download failed (${errorText(first)}); apt-get update, then again…`);
      try {
        run('apt-get', ['update'], debs, 300_000);
        run('apt-get', ['download', ...missing], debs);
      } catch (e) {
        throw new Error(`apt-get download ${missing.join(' ')} failed: ${errorText(e)}`);
      }
    }
  }
  rmSync(join(cacheDir, 'tree'), { recursive: true, force: true });
  const packages = [];
  const files = [];
  for (const pkg of DEBIAN_PACKAGES) {
    const deb = debOf(pkg);
    if (!deb) throw new Error(`apt-get download left no ${pkg}_*.deb in ${debs}`);
    const version = run('dpkg-deb', ['-f', join(debs, deb), 'Version'], debs).trim();
    const staging = tempDir(`deb-${pkg}`);
    run('dpkg', ['-x', join(debs, deb), staging], debs);
    const lua = luaFilesUnder(staging);
    for (const p of lua) {
      const source = join('tree', pkg, p);
      mkdirSync(dirname(join(cacheDir, source)), { recursive: true });
      copyFileSync(join(staging, p), join(cacheDir, source));
      files.push({ path: `${pkg}/${p}`, source });
    }
    packages.push({ name: pkg, version, luaFiles: lua.length });
  }
  const manifest = { format: CACHE_FORMAT, packages, files };
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 1)}\n`);
  return manifest;
}

/** A deterministic generated Lua corpus of about `targetLines` lines: modules that require and call each other. */
function syntheticCorpus(targetLines) {
  const files = [];
  let lines = 0;
  for (let m = 0; lines < targetLines; m++) {
    const out = [`-- synthetic module ${m}`, `local M = {}`, `local dep = require("pkg${(m + 1) % 50}.mod${m + 1}")`, ''];
    for (let f = 0; f < 12; f++) {
      out.push(
        `function M.handle_${m}_${f}(request, options)`,
        `  local result = {}`,
        `  for i = 1, #request do`,
        `    if options and options.strict then`,
        `      result[#result + 1] = dep.handle_${m + 1}_${f}(request[i])`,
        `    else`,
        `      result[#result + 1] = M.helper_${m}(request[i], ${f})`,
        `    end`,
        `  end`,
        `  return table.concat(result, ",")`,
        `end`,
        '',
      );
    }
    out.push(`function M.helper_${m}(value, n)`, `  return tostring(value) .. string.rep("-", n)`, `end`, '', 'return M', '');
    const text = out.join('\n');
    files.push({ path: `pkg${m % 50}/mod${m}.lua`, text });
    lines += countLines(text);
  }
  return files;
}

let corpusPromise;
/**
 * The corpus: `{ kind: 'debian' | 'synthetic', label, packages, files: [{ path, lines, read() }],
 * lines, problem? }`. `problem` says why the Debian corpus could not be had. Set
 * TRAVSR_BENCH_CORPUS=synthetic to skip the download.
 */
export function luaCorpus() {
  corpusPromise ??= Promise.resolve().then(() => {
    let problem;
    if (process.env.TRAVSR_BENCH_CORPUS === 'synthetic') problem = 'TRAVSR_BENCH_CORPUS=synthetic';
    else {
      try {
        const m = fetchDebianCorpus();
        const files = m.files.map((f) => {
          const abs = join(cacheDir, f.source);
          return { path: f.path, abs, lines: countLines(readFileSync(abs, 'utf8')) };
        });
        return {
          kind: 'debian',
          label: `Debian ${m.packages.map((p) => `${p.name} ${p.version}`).join(', ')}`,
          packages: m.packages,
          files,
          lines: files.reduce((n, f) => n + f.lines, 0),
        };
      } catch (e) {
        problem = errorText(e);
      }
    }
    log(`index corpus: falling back to a synthetic corpus (${problem})`);
    const files = syntheticCorpus(90_000).map((f) => ({ path: f.path, text: f.text, lines: countLines(f.text) }));
    return {
      kind: 'synthetic',
      label: 'synthetic Lua (generated)',
      packages: [],
      files,
      lines: files.reduce((n, f) => n + f.lines, 0),
      problem,
    };
  });
  return corpusPromise;
}

/** A stable pseudo-random order, so that a subset of the corpus mixes its packages. */
function shuffleKey(path) {
  let h = 2166136261;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * A git repository (one commit) holding the corpus, or a part of it, or copies of it in
 * `copy-<n>/` subdirectories until `targetLines` is reached. Returns `{ root, files, lines }`.
 */
export function corpusRepo(corpus, { targetLines, prefix = 'lua' } = {}) {
  const root = tempDir(prefix);
  git(root, ['init', '-q', '-b', 'main']);
  const order = targetLines === undefined ? corpus.files : [...corpus.files].sort((a, b) => shuffleKey(a.path) - shuffleKey(b.path));
  const files = [];
  let lines = 0;
  for (let copy = 0; targetLines === undefined ? copy < 1 : lines < targetLines; copy++) {
    for (const f of order) {
      if (targetLines !== undefined && lines >= targetLines) break;
      const path = copy === 0 ? f.path : `copy-${copy}/${f.path}`;
      const abs = join(root, path);
      mkdirSync(dirname(abs), { recursive: true });
      if (f.abs) copyFileSync(f.abs, abs);
      else writeFileSync(abs, f.text);
      files.push({ path, lines: f.lines });
      lines += f.lines;
    }
  }
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'corpus']);
  return { root, files, lines };
}

/** The row that says the real corpus could not be had and what stands in for it. */
export function fallbackRow(benchmark, corpus) {
  return row(
    benchmark,
    'real corpus (Debian packages)',
    `not fetched: ${corpus.problem}; the rows below are on a SYNTHETIC corpus`,
    '',
    '—',
    'skipped',
  );
}
