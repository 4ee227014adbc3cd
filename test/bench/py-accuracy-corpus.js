// Inputs of the `py-accuracy` benchmark, all outside git: the team's truth builder and scorer
// (calls-bench, `../shared/calls-bench` next to the repository, or TRAVSR_CALLS_BENCH), its
// cache ($CALLS_CACHE, default /tmp/calls-cache: Debian corpora, scip-python and its indexes,
// the truth files), and the Python corpora built from Debian packages. requests, flask and
// django come from calls-bench's corpus.sh; click, jinja2 and werkzeug are built here the same
// way (corpus.sh knows only its three).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { log, repoRoot, tempDir } from './common.js';
import { countLines, git } from './lua-corpus.js';
import { runMeasured } from './ts-accuracy-corpus.js';

/** Accuracy corpora: the package name in dist-packages and the Debian package holding it. */
export const PY_CORPORA = [
  { name: 'requests', deb: 'python3-requests', builder: 'corpus.sh' },
  { name: 'flask', deb: 'python3-flask', builder: 'corpus.sh' },
  { name: 'click', deb: 'python3-click', builder: 'bench' },
  { name: 'jinja2', deb: 'python3-jinja2', builder: 'bench' },
  { name: 'werkzeug', deb: 'python3-werkzeug', builder: 'bench' },
  { name: 'django', deb: 'python3-django', builder: 'corpus.sh' },
];

/** Where calls-bench is: TRAVSR_CALLS_BENCH, else `../shared/calls-bench` from the repository root. */
export function callsBenchDir() {
  return process.env.TRAVSR_CALLS_BENCH ?? join(repoRoot, '..', 'shared', 'calls-bench');
}

/** Why calls-bench cannot be used, or undefined. */
export function callsBenchProblem() {
  const dir = callsBenchDir();
  const missing = ['truth.mjs', 'score.mjs', 'corpus.sh'].filter((f) => !existsSync(join(dir, f)));
  if (missing.length === 0) return undefined;
  return (
    `calls-bench (the truth builder and scorer) not found in ${dir} (missing ${missing.join(', ')}); ` +
    'put the team checkout of calls-bench at ../shared/calls-bench next to the repository, or set TRAVSR_CALLS_BENCH to its directory'
  );
}

/** calls-bench's cache: corpora/, dl/, tools/, scip/, truth/. */
export function callsCache() {
  return process.env.CALLS_CACHE ?? '/tmp/calls-cache';
}

const childEnv = () => ({ ...process.env, CALLS_CACHE: callsCache() });

function errorText(e) {
  const stderr = typeof e?.stderr === 'string' ? e.stderr.trim().split('\n').slice(-3).join(' ') : '';
  return (stderr || (e?.message ?? String(e)).split('\n')[0]).replaceAll('\n', ' ');
}

/** The `.deb` of `deb` in the cache's dl/, downloaded with `apt-get download` when missing. */
function debianPackage(deb) {
  const dl = join(callsCache(), 'dl');
  mkdirSync(dl, { recursive: true });
  const find = () => readdirSync(dl).find((f) => f.startsWith(`${deb}_`) && f.endsWith('.deb'));
  if (!find()) {
    log(`py-accuracy: apt-get download ${deb}…`);
    try {
      execFileSync('apt-get', ['download', deb], { cwd: dl, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 300_000 });
    } catch {
      // A fresh machine has no package lists yet.
      try {
        execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
      } catch {
        // not root, or offline: the retry below says so
      }
      try {
        execFileSync('apt-get', ['download', deb], { cwd: dl, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', timeout: 300_000 });
      } catch (e) {
        throw new Error(`cannot fetch the Debian package ${deb} with apt-get download (${errorText(e)}); run it by hand in ${dl}`);
      }
    }
  }
  return join(dl, find());
}

/** Removes everything but `.py` files (and `__pycache__`, and the directories left empty). */
function keepPythonOnly(dir) {
  let left = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory() && e.name !== '__pycache__') {
      const n = keepPythonOnly(p);
      if (n === 0) rmSync(p, { recursive: true, force: true });
      left += n;
    } else if (e.isFile() && e.name.endsWith('.py')) left++;
    else rmSync(p, { recursive: true, force: true });
  }
  return left;
}

/**
 * What corpus.sh does for its Debian packages, for the ones it does not know: the package's
 * directory from usr/lib/python3/dist-packages, only its `.py` files, committed to a fresh git
 * repository (scip-python wants one), marked `.corpus-ready`.
 */
function buildDebianCorpus(corpus, out) {
  const deb = debianPackage(corpus.deb);
  const unpacked = tempDir(`deb-${corpus.name}`);
  execFileSync('dpkg', ['-x', deb, unpacked], { stdio: ['ignore', 'pipe', 'pipe'] });
  const pkgDir = join(unpacked, 'usr', 'lib', 'python3', 'dist-packages', corpus.name);
  if (!existsSync(pkgDir)) throw new Error(`${deb} holds no usr/lib/python3/dist-packages/${corpus.name}`);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  cpSync(pkgDir, join(out, corpus.name), { recursive: true, verbatimSymlinks: true });
  const files = keepPythonOnly(join(out, corpus.name));
  git(out, ['init', '-q']);
  git(out, ['add', '-A']);
  git(out, ['commit', '-q', '-m', 'corpus']);
  writeFileSync(join(out, '.corpus-info'), `source\tdebian ${relative(join(callsCache(), 'dl'), deb)}\nfiles\t${files}\n`);
  writeFileSync(join(out, '.corpus-ready'), '');
}

/** The corpus directory in the cache, built on first use (by corpus.sh or here). */
export function pythonCorpus(corpus) {
  const out = join(callsCache(), 'corpora', corpus.name);
  if (existsSync(join(out, '.corpus-ready'))) return out;
  log(`py-accuracy: building the ${corpus.name} corpus in ${out}…`);
  if (corpus.builder === 'corpus.sh') {
    try {
      execFileSync('bash', [join(callsBenchDir(), 'corpus.sh'), corpus.name], {
        env: childEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
        encoding: 'utf8',
        timeout: 900_000,
      });
    } catch (e) {
      throw new Error(`calls-bench corpus.sh ${corpus.name} failed: ${errorText(e)}`);
    }
  } else buildDebianCorpus(corpus, out);
  return out;
}

/** The upstream version of a corpus, from its `.deb` in the cache (`python3-django_3%3a3.2.25-0+deb12u7_all.deb` → 3.2.25). */
export function corpusVersion(corpus) {
  const dl = join(callsCache(), 'dl');
  const deb = existsSync(dl) ? readdirSync(dl).find((f) => f.startsWith(`${corpus.deb}_`) && f.endsWith('.deb')) : undefined;
  if (!deb) return '?';
  const full = decodeURIComponent(deb.slice(corpus.deb.length + 1).replace(/_[^_]+\.deb$/, ''));
  return full.replace(/^\d+:/, '').replace(/[-+~].*$/, '');
}

/** `.py` files and lines of a corpus (the Debian package's sources). */
export function pythonStats(dir) {
  let files = 0;
  let lines = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git' || e.name === '.travsr') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.py')) {
        files++;
        lines += countLines(readFileSync(p, 'utf8'));
      }
    }
  };
  walk(dir);
  return { files, lines };
}

/** A copy of the corpus (its git repository included) in a temp dir, for travsr to write `.travsr/` into. */
export function corpusCopy(dir, prefix) {
  const root = tempDir(prefix);
  cpSync(dir, root, { recursive: true, verbatimSymlinks: true });
  return root;
}

/**
 * The truth of a corpus (`truth.mjs CORPUS python`): scip-python's index is reused from the
 * cache when the corpus files are unchanged, the edges are derived again (seconds). Returns
 * `{ prefix, meta }`: `prefix` + `.edges.tsv` is the truth file.
 */
export function pythonTruth(corpus, dir) {
  log(`py-accuracy: ${corpus.name}: truth (calls-bench truth.mjs; scip-python runs only when its cached index is stale)…`);
  const r = spawnSync(process.execPath, [join(callsBenchDir(), 'truth.mjs'), dir, 'python', '--name', corpus.name], {
    env: childEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
    timeout: 1_800_000,
  });
  if (r.status !== 0)
    throw new Error(
      `calls-bench truth.mjs ${corpus.name} exited with ${r.status}: ${(r.stderr ?? '').trim().split('\n').slice(-3).join(' ')}`,
    );
  const prefix = join(callsCache(), 'truth', corpus.name);
  return { prefix, meta: JSON.parse(readFileSync(`${prefix}.meta.json`, 'utf8')) };
}

/** The scip-python version calls-bench pins (read from truth.mjs, so the two never drift apart). */
function pinnedScipPython() {
  const text = readFileSync(join(callsBenchDir(), 'truth.mjs'), 'utf8');
  const m = /'@sourcegraph\/scip-python':\s*'([^']+)'/.exec(text);
  if (!m) throw new Error(`no @sourcegraph/scip-python pin found in ${join(callsBenchDir(), 'truth.mjs')}`);
  return m[1];
}

/**
 * scip-python as calls-bench installs it ($CALLS_CACHE/tools, the pinned version); installed
 * here with npm the same way when a fresh cache lacks it. Returns `{ bin, version }`.
 */
export function scipPython() {
  const tools = join(callsCache(), 'tools');
  const pin = pinnedScipPython();
  const manifest = join(tools, 'node_modules', '@sourcegraph', 'scip-python', 'package.json');
  const installed = () => (existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined);
  if (installed() !== pin) {
    log(`py-accuracy: installing @sourcegraph/scip-python@${pin} into ${tools}…`);
    mkdirSync(tools, { recursive: true });
    if (!existsSync(join(tools, 'package.json'))) writeFileSync(join(tools, 'package.json'), '{"name":"calls-tools","private":true}\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `@sourcegraph/scip-python@${pin}`], {
      cwd: tools,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    });
  }
  return { bin: join(tools, 'node_modules', '.bin', 'scip-python'), version: installed() };
}

/**
 * scip-python over a corpus repository exactly as truth.mjs runs it (an empty environment
 * file, the same flags and heap limit), but uncached and measured: resolves runMeasured's
 * `{ wallMs, peakKiB, cpuMs, … }`.
 */
export async function indexWithScipPython(scip, repo, projectName) {
  const dir = tempDir('scip-python');
  const envFile = join(dir, 'env.json');
  writeFileSync(envFile, '[]\n');
  const out = join(dir, 'index.scip');
  const args = [
    'index',
    '.',
    '--project-name',
    projectName,
    '--project-version',
    '1',
    '--environment',
    envFile,
    '--output',
    out,
    '--quiet',
  ];
  const r = await runMeasured(scip.bin, args, {
    cwd: repo,
    env: { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=12288`.trim() },
    timeoutMs: 1_800_000,
  });
  if (r.code !== 0 || !existsSync(out))
    throw new Error(`scip-python exited with ${r.code}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return r;
}
