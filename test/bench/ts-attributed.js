// Benchmark `ts-attributed` (issue 17): lang-typescript's call edges scored "as attributed" by
// the team's call-edge truth builder and scorer (../shared/calls-bench, or TRAVSR_CALLS_BENCH):
// scip-typescript resolves each call, the TypeScript parser says where the definitions are, and
// the caller of a call is the innermost named definition around it. The score is score.mjs's
// `ctor` (only `new C()` landing on C's constructor instead of the class is forgiven), the one
// every accuracy figure in the issues uses, so the numbers here and the team's mean one thing.
//
// Per corpus (zod@3.25, effect@3.22, rxjs@7.8 src/, as calls-bench's corpus.sh pins them):
// `travsr init` of a copy, `travsr graph export --format jsonl`, score.mjs, and a second score of
// the same export without the call edges the truth cannot see (calls-bench README, "Call sites"):
// `super(…)` calls, which it does not count, and calls of a definition under another name
// (`export { _normalize as normalize }`, `import { a as b }`), whose SCIP occurrence names the
// alias, not a parsed definition, so the truth drops the site.
//
// TRAVSR_BENCH_ATTRIBUTED=zod,effect picks corpora. Needs npm (corpus.sh packs the tarballs) and,
// on first use, calls-bench installs scip-typescript into its cache ($CALLS_CACHE, /tmp/calls-cache).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { log, row, sandboxAvailable, skipRow, tempDir } from './common.js';
import { callsBenchDir, callsBenchProblem, callsCache } from './py-accuracy-corpus.js';
import { benchTravsrHome, runTravsr } from './travsr-cli.js';

export const name = 'ts-attributed';
export const title = 'lang-typescript call edges as attributed (calls-bench)';

const CORPORA = ['zod', 'effect', 'rxjs'];
const TARGET = { precision: 0.99, recall: 0.97 };

const exec = (cmd, args, cwd) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CALLS_CACHE: callsCache() },
  });

/** The truth of `corpus` (cached by calls-bench): the corpus directory and its edges file. */
function truthOf(bench, corpus) {
  const dir = exec('bash', [join(bench, 'corpus.sh'), corpus], bench)
    .trim()
    .split('\n')
    .pop();
  exec(process.execPath, [join(bench, 'truth.mjs'), dir, 'ts'], bench);
  return { dir, edges: join(callsCache(), 'truth', `${corpus}.edges.tsv`) };
}

/** `travsr init` of a git copy of the corpus, then its graph export (JSON lines). */
async function travsrExport(corpusDir, corpus) {
  const repo = join(tempDir(`attributed-${corpus}`), corpus);
  cpSync(corpusDir, repo, { recursive: true, filter: (p) => !p.endsWith('/.git') });
  const git = (...a) => exec('git', a, repo);
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@travsr.dev', 'commit', '-qm', 'corpus');
  const home = benchTravsrHome();
  const init = await runTravsr(['init', repo, '--no-hook', '--json'], { home, timeoutMs: 900_000 });
  if (init.code !== 0) throw new Error(`travsr init exited with ${init.code}: ${init.stderr.trim().split('\n').slice(-2).join(' ')}`);
  const exp = await runTravsr(['graph', 'export', repo, '--format', 'jsonl'], { home, timeoutMs: 300_000 });
  if (exp.code !== 0) throw new Error(`travsr graph export exited with ${exp.code}: ${exp.stderr.trim()}`);
  const out = join(tempDir(`attributed-${corpus}-export`), 'graph.jsonl');
  writeFileSync(out, exp.stdout);
  return { repo, out, wallMs: init.wallMs, summary: JSON.parse(init.stdout).summary };
}

/**
 * The export without the call edges the truth cannot see: a constructor's `super(…)` call of
 * its base class's constructor, and a call whose callee's name the caller's code never writes
 * (it calls the definition under another name). Resolves the filtered file and the counts.
 */
function withoutTruthBlind(repo, exportFile) {
  const lines = readFileSync(exportFile, 'utf8').split('\n').filter(Boolean);
  // Each line parsed once: the nodes are needed before the edges are judged.
  const records = lines.map((l) => JSON.parse(l));
  const nodes = new Map();
  for (const o of records) if (o.type === 'node') nodes.set(o.id, o);
  const sources = new Map();
  const textOf = (n) => {
    let src = sources.get(n.path);
    if (src === undefined)
      sources.set(n.path, (src = existsSync(join(repo, n.path)) ? readFileSync(join(repo, n.path), 'utf8').split('\n') : []));
    return src.slice(n.start_line - 1, n.end_line).join('\n');
  };
  let superCalls = 0;
  let renamed = 0;
  const kept = lines.filter((_, i) => {
    const o = records[i];
    if (o.type !== 'edge' || o.kind !== 'calls') return true;
    const caller = nodes.get(o.src);
    const callee = nodes.get(o.dst);
    if (!caller?.path || !callee?.path || !caller.start_line) return true;
    const text = textOf(caller);
    if (callee.kind === 'constructor') {
      // The base class's constructor, called by `super(…)` (not by a `new` of that class).
      const cls = (callee.qualified_name ?? '').split('.').slice(-2, -1)[0];
      if (caller.kind === 'constructor' && /\bsuper\s*\(/.test(text) && !(cls && new RegExp(`\\bnew\\s+${word(cls)}`).test(text))) {
        superCalls++;
        return false;
      }
      return true;
    }
    if (!new RegExp(word(callee.name)).test(text)) {
      renamed++;
      return false;
    }
    return true;
  });
  const out = exportFile.replace(/\.jsonl$/, '.without-blind.jsonl');
  writeFileSync(out, `${kept.join('\n')}\n`);
  return { out, superCalls, renamed };
}

/** A pattern for the identifier `name` as a whole word (`$` and `_` are word characters in JavaScript). */
const word = (name) => `(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`;

function score(bench, truth, exportFile) {
  const json = `${exportFile}.score.json`;
  exec(process.execPath, [join(bench, 'score.mjs'), truth, exportFile, '--json', json], bench);
  return JSON.parse(readFileSync(json, 'utf8'));
}

const fmt = (s) => `${s.precision.toFixed(3)} / ${s.recall.toFixed(3)} (TP ${s.tp}, FP ${s.fp}, FN ${s.fn})`;

export async function run() {
  const problem = callsBenchProblem();
  if (problem) return [skipRow(title, problem)];
  const bench = callsBenchDir();
  if (!sandboxAvailable()) return [skipRow(title, 'bubblewrap is not available: install it to run the plugins')];
  const picked = (process.env.TRAVSR_BENCH_ATTRIBUTED ?? CORPORA.join(',')).split(',').filter(Boolean);
  const rows = [];
  for (const corpus of picked) {
    try {
      log(`ts-attributed: ${corpus}: truth (calls-bench, cached after the first run)…`);
      const truth = truthOf(bench, corpus);
      log(`ts-attributed: ${corpus}: travsr init…`);
      const t = await travsrExport(truth.dir, corpus);
      const all = score(bench, truth.edges, t.out);
      const blind = withoutTruthBlind(t.repo, t.out);
      const seen = score(bench, truth.edges, blind.out);
      const ok = all.ctor.precision >= TARGET.precision && all.ctor.recall >= TARGET.recall;
      const label = `${corpus}: ${t.summary.nodes.toLocaleString('en-US')} nodes, ${t.summary.edges.toLocaleString('en-US')} edges`;
      rows.push(
        row(title, `${label}; truth call edges`, all.truth_edges, 'edges'),
        row(title, `${corpus}: as attributed (ctor) P / R`, fmt(all.ctor), '', '≥ 0.99 / ≥ 0.97', ok ? 'ok' : 'below'),
        row(title, `${corpus}: enclosing forgiven (lenient) P / R`, fmt(all.lenient), ''),
        row(
          title,
          `${corpus}: as attributed without the edges the truth cannot see (${blind.superCalls} super(…) calls; ${blind.renamed} whose callee the caller never names, a heuristic)`,
          fmt(seen.ctor),
          '',
        ),
        row(title, `${corpus}: travsr init wall`, t.wallMs / 1000, 's'),
      );
    } catch (e) {
      rows.push(skipRow(title, `${corpus}: ${e.message.split('\n')[0]}`, 'error'));
    }
  }
  return rows;
}
