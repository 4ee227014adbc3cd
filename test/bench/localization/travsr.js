// The Travsr side of the localization benchmark: `travsr init` on a materialized tree (once;
// the graph stays in <tree>/.travsr/graph.db), then `travsr ask --json` with the problem
// statement, and the answer mapped onto the eval data's names.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { repoRoot } from '../common.js';

const require = createRequire(import.meta.url);
// Bump when what init writes changes in a way that makes cached graphs unusable.
const INDEX_FORMAT = 1;

/** The CLI entry (host package.json "bin": bin/run.js); TRAVSR_BENCH_CLI points at another build. */
export const defaultCliEntry = join(repoRoot, 'host', 'bin', 'run.js');
export const cliEntry = process.env.TRAVSR_BENCH_CLI ? resolve(process.env.TRAVSR_BENCH_CLI) : defaultCliEntry;

/** Runs `node <cli> <args>` in `cwd`; resolves `{ code, stdout, stderr, wallMs }`, never rejects on exit codes. */
export function travsr(args, { cwd, home, timeoutMs = 900_000 }) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cliEntry, ...args], {
      cwd,
      // The ceiling keeps git from walking up out of the instance's tree into this monorepo.
      env: { ...process.env, TRAVSR_HOME: home, GIT_CEILING_DIRECTORIES: dirname(cwd) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(killer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, wallMs: performance.now() - t0 });
    });
  });
}

const lastLines = (text, n = 2) => text.trim().split('\n').slice(-n).join(' ').slice(0, 300);

/**
 * The index of `src` (`src/.travsr/graph.db`): made with `travsr init . --no-hook --json` when
 * it or its marker is missing (or `reindex`), reused otherwise. Resolves `{ cached, wallMs,
 * durationMs, nodes, edges, analyzed }` — the times of the run that made it — or throws.
 */
export async function ensureIndex(src, markerFile, { home, reindex = false }) {
  const top = execFileSync('git', ['-C', src, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
  if (realpathSync(top) !== realpathSync(src))
    throw new Error(`${src} is not the top of its own git repository (${top} is); delete it to extract again`);
  const db = join(src, '.travsr', 'graph.db');
  if (!reindex && existsSync(db) && existsSync(markerFile)) {
    try {
      const m = JSON.parse(readFileSync(markerFile, 'utf8'));
      if (m.format === INDEX_FORMAT) return { ...m, cached: true };
    } catch {
      // index again
    }
  }
  const r = await travsr(['init', '.', '--no-hook', '--json'], { cwd: src, home });
  if (r.code !== 0) throw new Error(`travsr init exited with ${r.code}: ${lastLines(r.stderr)}`);
  const summary = JSON.parse(r.stdout).summary;
  const m = {
    format: INDEX_FORMAT,
    wallMs: r.wallMs,
    durationMs: summary.durationMs,
    analyzed: summary.analyzed,
    failed: summary.failed,
    nodes: summary.nodes,
    edges: summary.edges,
    at: new Date().toISOString(),
  };
  writeFileSync(markerFile, JSON.stringify(m));
  return { ...m, cached: false };
}

/**
 * `travsr ask --json --file <query file> --budget <budget>` in `src` (the whole issue text, which
 * may be longer than a command line takes). Resolves `{ status: 'ok', answer, wallMs, cutTo }`,
 * `{ status: 'unavailable' }` when this CLI has no `ask` command, or `{ status: 'error', reason }`.
 * An older CLI (TRAVSR_BENCH_CLI) without `--file` gets the query as its argument, cut to the
 * length it says it takes (cutTo).
 */
export async function ask(src, query, { home, budget = 8000 }) {
  const dir = mkdtempSync(join(tmpdir(), 'travsr-bench-query-'));
  const file = join(dir, 'query.txt');
  writeFileSync(file, query);
  const run = (q) => travsr(['ask', '--json', q, '--budget', String(budget)], { cwd: src, home, timeoutMs: 300_000 });
  let r = await travsr(['ask', '--json', '--file', file, '--budget', String(budget)], { cwd: src, home, timeoutMs: 300_000 });
  rmSync(dir, { recursive: true, force: true });
  let cutTo;
  if (r.code !== 0 && /Nonexistent flag: --file/.test(r.stderr)) {
    r = await run(query);
    const cap = /more than (\d+) characters/.exec(r.stderr);
    if (r.code !== 0 && cap) {
      cutTo = Number(cap[1]);
      r = await run(query.slice(0, cutTo));
    }
  }
  if (r.code !== 0) {
    if (/command ask not found|unknown command/i.test(r.stderr)) return { status: 'unavailable' };
    return { status: 'error', reason: `exit ${r.code}: ${lastLines(r.stderr)}` };
  }
  try {
    return { status: 'ok', answer: JSON.parse(r.stdout), wallMs: r.wallMs, cutTo };
  } catch {
    return { status: 'error', reason: `no JSON: ${r.stdout.slice(0, 200)}` };
  }
}

/**
 * Per path, the kind of every definition by qualified name, from the graph store: what
 * {@link evalFunctionName} needs to tell a method from a function nested in a function.
 */
export function definitionKinds(src) {
  const Database = require('better-sqlite3');
  const db = new Database(join(src, '.travsr', 'graph.db'), { readonly: true });
  try {
    const kinds = new Map();
    for (const n of db
      .prepare(`SELECT path, qualified_name AS q, kind FROM nodes WHERE kind != 'file' AND tombstoned_at IS NULL`)
      .iterate()) {
      let m = kinds.get(n.path);
      if (!m) kinds.set(n.path, (m = new Map()));
      m.set(n.q, n.kind);
    }
    return kinds;
  } finally {
    db.close();
  }
}

/** The kinds the eval data's function names can be: functions, methods and classes. */
const DEFINITION_KINDS = new Set(['function', 'method', 'class', 'constructor']);

/**
 * A graph node as the eval data names functions: `path::qualified_name` cut to the entity the
 * gold patches are counted in. lang-structural's Python qualified names are dotted from the
 * module: `Class`, `Class.method`, `func`, and nested definitions go on (`Class.method.inner`,
 * `func.helper`, `Outer.Inner.method`); the eval data names only module-level functions,
 * classes (nested ones too) and their methods, so a nested function maps to its outermost
 * function or method. `kinds` (from {@link definitionKinds}) says which prefixes are classes
 * and which are the file's module (lang-python's names start with it); without it, a capitalized
 * first part is taken for a class. Anything but a function, method or class maps to undefined.
 */
export function evalFunctionName(node, kinds) {
  // The eval data names functions, methods and classes: variables, fields and modules are no answer.
  if (!DEFINITION_KINDS.has(node.kind) || !node.qualified_name || !node.path) return undefined;
  const byName = kinds?.get(node.path);
  // lang-python qualifies names from the module (`_pytest.skipping.evaluate_skip_marks`): the
  // eval data names them from the file, so the file's module path goes.
  let qualified = node.qualified_name;
  const module = [...(byName ?? [])]
    .filter(([q, kind]) => kind === 'module' && qualified.startsWith(`${q}.`))
    .reduce((longest, [q]) => (q.length > longest.length ? q : longest), '');
  if (module) qualified = qualified.slice(module.length + 1);
  const parts = qualified.split('.');
  // The kinds are keyed by the graph's own qualified names, the module's prefix included.
  const isClass = (prefix) =>
    byName ? byName.get(module ? `${module}.${prefix}` : prefix) === 'class' : /^[A-Z]/.test(prefix.slice(prefix.lastIndexOf('.') + 1));
  let name = parts[0];
  let i = 1;
  while (i < parts.length && isClass(name)) name = `${name}.${parts[i++]}`;
  return `${node.path}::${name}`;
}

/**
 * Ranked files and eval-named functions of an `ask` answer (duplicates after mapping dropped):
 * the function stage's `functions` list, or, from a CLI older than it, the ranked `nodes`.
 */
export function rankingsOf(answer, kinds) {
  const files = (answer.files ?? []).map((f) => f.path);
  const functions = [];
  const seen = new Set();
  for (const n of answer.functions ?? answer.nodes ?? []) {
    const f = evalFunctionName(n, kinds);
    if (f && !seen.has(f)) {
      seen.add(f);
      functions.push(f);
    }
  }
  return { files, functions };
}

/**
 * `TRAVSR_BENCH_SYNONYMS=mine` (issue 21): `travsr synonym mine --apply` on the instance's graph
 * before asking. Resolves the number of pairs added; {@link clearSynonyms} takes them out again
 * afterwards, so the cached graph stays as `init` made it.
 */
export async function applyMinedSynonyms(src, { home }) {
  clearSynonyms(src);
  // TRAVSR_BENCH_SYNONYMS_ARGS: more flags of `synonym mine`, e.g. "--min-lift 20".
  const extra = (process.env.TRAVSR_BENCH_SYNONYMS_ARGS ?? '').split(' ').filter((a) => a !== '');
  const r = await travsr(['synonym', 'mine', '--apply', '--json', ...extra], { cwd: src, home });
  if (r.code !== 0) throw new Error(`travsr synonym mine exited with ${r.code}: ${lastLines(r.stderr)}`);
  return JSON.parse(r.stdout).added;
}

/** Empties the synonyms of the instance's graph (and moves its graph version, as the store does). */
export function clearSynonyms(src) {
  const Database = require('better-sqlite3');
  const db = new Database(join(src, '.travsr', 'graph.db'));
  try {
    if (db.prepare('DELETE FROM synonyms').run().changes > 0)
      db.prepare("UPDATE meta SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT) WHERE key = 'graph_version'").run();
  } finally {
    db.close();
  }
}
