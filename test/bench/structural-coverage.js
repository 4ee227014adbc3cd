// Benchmark `structural`: lang-structural on real code nobody here wrote. Django (Debian's
// python3-django) and the Go standard library (Debian's golang-1.19-src, its src/ tree) are
// fetched with `apt-get download` and `dpkg -x` into test/bench/.cache/structural/ (ignored by
// git), committed into a fresh git repository each, and indexed with `travsr init <repo>
// --no-hook --json` as a user runs it (own TRAVSR_HOME, standard sandbox tier). Per language:
// files, nodes, refs, files with parse errors (the PARSE_ERRORS diagnostics stored in the
// files table) and their share, time, and that nothing crashed. A second check parses a sample
// of each language's files in one sequence, in process, and compares every valid one with its
// parse by a fresh wasm instance: a grammar that carries state from file to file shows there.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { benchDir, log, repoRoot, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { git } from './lua-corpus.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

export const name = 'structural';
export const title = 'structural coverage';

const pluginDir = join(repoRoot, 'plugins', 'lang-structural');
// Go, Python and Rust have their own plugins (same grammar builds); their tables are merged in.
const pluginDirs = [pluginDir, ...['lang-go', 'lang-python', 'lang-rust'].map((id) => join(repoRoot, 'plugins', id))];
const cacheDir = join(benchDir, '.cache', 'structural');
// Bump when the layout of the cache changes, so that an old cache is rebuilt.
const CACHE_FORMAT = 1;
const require = createRequire(import.meta.url);

/** The corpora: a Debian package, the directory of it that is the code, the files kept. */
const CORPORA = [
  { id: 'django', label: 'Django', pkg: 'python3-django', dir: 'usr/lib/python3/dist-packages/django' },
  { id: 'go-stdlib', label: 'Go standard library', pkg: 'golang-1.19-src', dir: 'usr/share/go-1.19/src' },
];

/** The plugins' language tables as their builds write them: extensions and file names → language, language → grammar file (absolute). */
function pluginLanguages() {
  const table = { byExtension: {}, byName: {}, grammars: {} };
  for (const dir of pluginDirs) {
    const t = JSON.parse(readFileSync(join(dir, 'dist', 'languages.json'), 'utf8'));
    Object.assign(table.byExtension, t.byExtension);
    Object.assign(table.byName, t.byName);
    for (const [language, grammar] of Object.entries(t.grammars)) table.grammars[language] = join(dir, 'dist', grammar);
  }
  return table;
}

function languageOf(table, path) {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (table.byName[base]) return table.byName[base];
  for (let dot = base.indexOf('.'); dot !== -1; dot = base.indexOf('.', dot + 1)) {
    const hit = table.byExtension[base.slice(dot).toLowerCase()];
    if (hit) return hit;
  }
  return undefined;
}

function exec(cmd, args, cwd, timeout = 300_000) {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout, maxBuffer: 64 << 20 });
}

function errorText(e) {
  const stderr = typeof e?.stderr === 'string' ? e.stderr.trim().split('\n').slice(-2).join(' ') : '';
  return (stderr || (e?.message ?? String(e)).split('\n')[0]).replaceAll('\n', ' ');
}

function filesUnder(dir, base = dir, out = []) {
  for (const entry of readdirSync(dir).sort()) {
    const abs = join(dir, entry);
    const st = lstatSync(abs);
    if (st.isDirectory()) filesUnder(abs, base, out);
    else if (st.isFile()) out.push(relative(base, abs));
  }
  return out;
}

/**
 * Downloads and unpacks a corpus (once), keeping only the files lang-structural serves, and
 * returns `{ id, label, version, root, files }`. Throws with the reason when apt or the network
 * is not there.
 */
function fetchCorpus(corpus, table) {
  const dir = join(cacheDir, corpus.id);
  // No extension: `prettier --check .` walks into the cache and must find nothing to check.
  const manifestFile = join(dir, 'MANIFEST');
  if (existsSync(manifestFile)) {
    const m = JSON.parse(readFileSync(manifestFile, 'utf8'));
    if (m.format === CACHE_FORMAT && m.files.every((f) => existsSync(join(dir, 'tree', f))))
      return { ...corpus, ...m, root: join(dir, 'tree') };
  }
  const debs = join(cacheDir, 'debs');
  mkdirSync(debs, { recursive: true });
  const debOf = () => readdirSync(debs).find((f) => f.startsWith(`${corpus.pkg}_`) && f.endsWith('.deb'));
  if (!debOf()) {
    log(`structural: apt-get download ${corpus.pkg}…`);
    try {
      exec('apt-get', ['download', corpus.pkg], debs);
    } catch (first) {
      log(`structural: download failed (${errorText(first)}); apt-get update, then again…`);
      try {
        exec('apt-get', ['update'], debs, 600_000);
        exec('apt-get', ['download', corpus.pkg], debs);
      } catch (e) {
        throw new Error(`apt-get download ${corpus.pkg} failed: ${errorText(e)}`);
      }
    }
  }
  const deb = debOf();
  if (!deb) throw new Error(`apt-get download left no ${corpus.pkg}_*.deb in ${debs}`);
  const version = exec('dpkg-deb', ['-f', join(debs, deb), 'Version'], debs).trim();
  const staging = tempDir(`deb-${corpus.id}`);
  exec('dpkg', ['-x', join(debs, deb), staging], debs);
  const source = join(staging, corpus.dir);
  if (!existsSync(source)) throw new Error(`${deb} has no ${corpus.dir}`);
  rmSync(dir, { recursive: true, force: true });
  const files = [];
  for (const path of filesUnder(source)) {
    if (!languageOf(table, path)) continue;
    mkdirSync(dirname(join(dir, 'tree', path)), { recursive: true });
    copyFileSync(join(source, path), join(dir, 'tree', path));
    files.push(path);
  }
  const m = { format: CACHE_FORMAT, package: corpus.pkg, version, files };
  writeFileSync(manifestFile, `${JSON.stringify(m, null, 1)}\n`);
  return { ...corpus, ...m, root: join(dir, 'tree') };
}

/** A fresh git repository (one commit) with the corpus files. */
function corpusRepo(corpus) {
  const root = tempDir(`structural-${corpus.id}`);
  git(root, ['init', '-q', '-b', 'main']);
  for (const path of corpus.files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    copyFileSync(join(corpus.root, path), join(root, path));
  }
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'corpus']);
  return root;
}

/** Per language, from the graph store: files by status, files with PARSE_ERRORS, nodes, refs. */
function perLanguage(repo) {
  const Database = require('better-sqlite3');
  const db = new Database(join(repo, '.travsr', 'graph.db'), { readonly: true });
  try {
    const files = db
      .prepare(
        `SELECT language, count(*) AS files, sum(status = 'ok') AS ok, sum(status = 'failed') AS failed,
           sum(EXISTS (SELECT 1 FROM json_each(diagnostics) WHERE json_extract(value, '$.code') = 'PARSE_ERRORS')) AS parseErrors
         FROM files WHERE language IS NOT NULL GROUP BY language ORDER BY language`,
      )
      .all();
    const nodes = new Map(
      db
        .prepare(`SELECT language, count(*) AS n FROM nodes WHERE kind != 'file' AND tombstoned_at IS NULL GROUP BY language`)
        .all()
        .map((r) => [r.language, r.n]),
    );
    const refs = new Map(
      db
        .prepare(`SELECT f.language AS language, count(*) AS n FROM refs r JOIN files f ON f.path = r.path GROUP BY f.language`)
        .all()
        .map((r) => [r.language, r.n]),
    );
    const broken = db
      .prepare(
        `SELECT language, path FROM files WHERE EXISTS (SELECT 1 FROM json_each(diagnostics) WHERE json_extract(value, '$.code') = 'PARSE_ERRORS') ORDER BY path`,
      )
      .all();
    return files.map((f) => ({
      ...f,
      nodes: nodes.get(f.language) ?? 0,
      refs: refs.get(f.language) ?? 0,
      // Test data written to be invalid (Go's testdata/) is reported apart from the code proper.
      parseErrorsOutsideTestdata: broken.filter((b) => b.language === f.language && !/(^|\/)testdata\//.test(b.path)).length,
    }));
  } finally {
    db.close();
  }
}

const webTreeSitter = pathToFileURL(require.resolve('web-tree-sitter')).href;

/** The tree of `text` as the first parse of a fresh web-tree-sitter instance (a worker thread). */
function freshParse(grammar, text) {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { Parser, Language } = await import(workerData.webTreeSitter);
      await Parser.init();
      const language = await Language.load(require('node:fs').readFileSync(workerData.grammar));
      const parser = new Parser();
      parser.setLanguage(language);
      parentPort.postMessage(parser.parse(workerData.text).rootNode.toString());
    })().catch((e) => parentPort.postMessage('worker failed: ' + e.message));`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { webTreeSitter, grammar, text } });
    worker.once('message', (tree) => {
      resolve(tree);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/**
 * Parses `sample` files of a language in one sequence with one parser (after a warm-up, as the
 * plugin does) and compares each valid one with a fresh instance's parse. Returns
 * `{ compared, differ }`.
 */
let treeSitter;
async function stateCheck(grammarFile, texts) {
  treeSitter ??= import(webTreeSitter).then(async (m) => {
    await m.Parser.init();
    return m;
  });
  const { Parser, Language } = await treeSitter;
  const language = await Language.load(readFileSync(grammarFile));
  const parser = new Parser();
  parser.setLanguage(language);
  parser.parse('')?.delete();
  let compared = 0;
  let differ = 0;
  for (const text of texts) {
    const reference = await freshParse(grammarFile, text);
    if (/\b(ERROR|MISSING)\b/.test(reference)) {
      parser.parse(text)?.delete(); // still part of the sequence
      continue;
    }
    const tree = parser.parse(text);
    compared++;
    if (tree.rootNode.toString() !== reference) differ++;
    tree.delete();
  }
  return { compared, differ };
}

/** Every n-th file so that the sample spans the tree. */
function spread(list, count) {
  if (list.length <= count) return list;
  const step = list.length / count;
  return Array.from({ length: count }, (_, i) => list[Math.floor(i * step)]);
}

export async function run() {
  for (const dir of pluginDirs)
    if (!existsSync(join(dir, 'dist', 'main.js')))
      return [skipRow(title, `${relative(repoRoot, dir)} is not built; run \`npm run build\` first`)];
  const sandbox = await sandboxAvailable();
  if (!sandbox.ok) return [skipRow(title, sandbox.reason)];
  const table = pluginLanguages();
  const rows = [];
  for (const c of CORPORA) {
    let corpus;
    try {
      corpus = fetchCorpus(c, table);
    } catch (e) {
      rows.push(skipRow(`${title}: ${c.label}`, `corpus not fetched: ${e.message}`));
      continue;
    }
    const bench = `${title}: ${corpus.label} ${corpus.version}`;
    log(`structural: ${corpus.label}: ${corpus.files.length} files, git repository…`);
    const repo = corpusRepo(corpus);
    log(`structural: ${corpus.label}: travsr init…`);
    const home = benchTravsrHome();
    const r = await runTravsr(['init', repo, '--no-hook', '--json'], {
      home,
      env: { TRAVSR_CORPUS: `bench.travsr.dev/${corpus.id}` },
      timeoutMs: 1_800_000,
    });
    let summary;
    try {
      summary = JSON.parse(r.stdout).summary;
    } catch {
      summary = undefined;
    }
    const crashed = r.code !== 0 || !summary;
    rows.push(
      row(
        bench,
        'travsr init --no-hook (standard tier): exit code',
        String(r.code ?? 'killed'),
        '',
        '0, no crash',
        crashed ? 'FAIL' : 'ok',
      ),
    );
    if (crashed) {
      rows.push(row(bench, 'stderr', r.stderr.trim().split('\n').slice(-2).join(' ').slice(0, 300), ''));
      continue;
    }
    const seconds = summary.durationMs / 1000;
    rows.push(
      row(bench, 'files in the repository (served extensions)', corpus.files.length, 'files'),
      row(
        bench,
        'files analyzed / failed / skipped by the walker',
        `${summary.analyzed} / ${summary.failed} / ${Object.values(summary.skipped).reduce((a, b) => a + b, 0)}`,
        'files',
        'failed 0',
        summary.failed === 0 ? 'ok' : 'FAIL',
      ),
      row(bench, 'index run (summary durationMs)', seconds, 's'),
      row(bench, 'throughput, index run', summary.analyzed / seconds, 'files/s'),
      row(
        bench,
        'peak RSS host / plugin',
        `${Math.round((r.hostPeakKiB ?? 0) / 1024)} / ${Math.round((r.pluginPeakKiB ?? 0) / 1024)}`,
        'MiB',
      ),
      row(
        bench,
        'name matching: edges / ambiguous / unresolved refs',
        `${summary.refs.edges} / ${summary.refs.ambiguous} / ${summary.refs.unresolved}`,
        '',
      ),
    );
    for (const l of perLanguage(repo)) {
      const share = l.files > 0 ? (100 * l.parseErrors) / l.files : 0;
      rows.push(
        row(bench, `${l.language}: files ok / failed`, `${l.ok} / ${l.failed}`, 'files'),
        row(bench, `${l.language}: definitions / refs`, `${l.nodes} / ${l.refs}`, ''),
        row(bench, `${l.language}: files with parse errors`, `${l.parseErrors} (${share.toFixed(1)}%)`, 'files'),
      );
      if (l.parseErrors !== l.parseErrorsOutsideTestdata) {
        rows.push(row(bench, `${l.language}: of which outside testdata/`, String(l.parseErrorsOutsideTestdata), 'files'));
      }
    }
    // Cross-file state: a sample per language, in one sequence, against fresh parses.
    const byLanguage = new Map();
    for (const path of corpus.files) {
      const language = languageOf(table, path);
      byLanguage.set(language, [...(byLanguage.get(language) ?? []), path]);
    }
    for (const [language, paths] of [...byLanguage].sort()) {
      const texts = spread(paths, 60).map((p) => readFileSync(join(corpus.root, p), 'utf8'));
      const { compared, differ } = await stateCheck(table.grammars[language], texts);
      rows.push(
        row(
          bench,
          `${language}: valid files parsing differently after others (sample)`,
          `${differ} of ${compared}`,
          'files',
          '0',
          differ === 0 ? 'ok' : 'FAIL',
        ),
      );
    }
  }
  return rows;
}
