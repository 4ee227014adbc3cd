// Scores a travsr graph export (`travsr graph export --format jsonl`) against the save-analysis
// reference of rust-accuracy-truth.js, in the export's node space.
//
// A reference definition (file, short name, line of its name) is the innermost exported node of
// the same file and name whose lines (1-based, inclusive, as the export writes them) hold that
// line. A travsr `calls` edge is scored when the reference can see its caller; set aside, and
// counted, when the caller lies in a `macro_rules!` body or the call in a body a `macro_rules!`
// writes (lang-rust gives those confidence < 1), in a file or item the library build did
// not compile (tests/, examples/, `#[cfg(test)]`, a feature that is off), or is no function (the
// reference has no calls outside function bodies), when its callee is outside the crate or in
// another package of the repository (a path dependency such as criterion's `plot/`: the
// reference is the library crate's own save-analysis), when
// the reference has the callee only used as a value there (`map(Self::f)`), not called, and when
// the callee is an item a macro invocation wrote (save-analysis records no definition for it), and when
// the reference lacks the edge but has a resolved reference at none of the caller's call sites
// of that name (they sit in macro arguments the expansion dropped or rebuilt, or in a `#[cfg]`-off
// block).
// Precision = edges in the reference ÷ edges scored; recall = reference call edges found ÷
// reference call edges (those whose definitions have no node count as missed).
// `implements` edges are scored apart: impl method → trait item, type → trait, and trait →
// supertrait (`implements` or `inherits`).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SourceCache, isCallSite, nextToken } from './rust-accuracy-source.js';

const FN_DEF_KINDS = new Set(['Function', 'Method', 'TraitMethod']);
const FN_NODE_KINDS = new Set(['function', 'method', 'constructor']);

/** The export's nodes by id and its `calls`, `implements` and `inherits` edges, each (src, dst) pair once. */
export function loadExport(file) {
  const nodes = new Map();
  const edges = { calls: new Map(), implements: new Map(), inherits: new Map() };
  const provenance = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.type === 'node') nodes.set(o.id, o);
    else if (o.type === 'edge' && edges[o.kind]) {
      edges[o.kind].set(`${o.src}\t${o.dst}`, o);
      if (o.kind === 'calls') provenance[o.provenance] = (provenance[o.provenance] ?? 0) + 1;
    }
  }
  const list = (kind) => [...edges[kind].values()];
  return { nodes, calls: list('calls'), implements: list('implements'), inherits: list('inherits'), provenance };
}

/** The export's node kinds a function definition of the reference may be. */
const NODE_KINDS_OF_DEF = { Function: new Set(['function']), Method: new Set(['method', 'constructor']), TraitMethod: new Set(['method']) };

/**
 * Reference definitions ↔ exported nodes: `nodeOf` (definition key → node id) and `defsOf`
 * (node id → the definitions mapped to it).
 *
 * A function a `macro_rules!` writes (`rng_integer!(u64, …)` in an `impl`) has its reference line
 * in the macro's body, where save-analysis puts the `$name` it was written from; lang-rust puts it
 * at the invocation. Such a definition is matched to the one node of its file, name and kind
 * outside the file's `macro_rules!` bodies, when there is exactly one.
 */
export function matchDefinitions(truth, nodes) {
  const byFileName = new Map();
  for (const n of nodes.values()) {
    if (n.kind === 'file' || n.kind === 'external' || !n.path || n.start_line == null) continue;
    const k = `${n.path}\t${n.name}`;
    if (!byFileName.has(k)) byFileName.set(k, []);
    byFileName.get(k).push(n);
  }
  const nodeOf = new Map();
  const defsOf = new Map();
  for (const d of truth.defs) {
    let best;
    for (const n of byFileName.get(`${d.rel}\t${d.name}`) ?? []) {
      if (n.start_line > d.line || (n.end_line ?? n.start_line) < d.line) continue;
      const span = (n.end_line ?? n.start_line) - n.start_line;
      if (!best || span < best.span || (span === best.span && n.start_line > best.n.start_line)) best = { n, span };
    }
    if (!best) best = writtenByMacroRules(d, byFileName, truth.macroRegions);
    if (!best) continue;
    nodeOf.set(d.key, best.n.id);
    if (!defsOf.has(best.n.id)) defsOf.set(best.n.id, []);
    defsOf.get(best.n.id).push(d);
  }
  return { nodeOf, defsOf, defsMatched: nodeOf.size };
}

/** For a function definition whose line lies in a `macro_rules!` body: the one node it can be (see matchDefinitions). */
function writtenByMacroRules(d, byFileName, regions) {
  const kinds = NODE_KINDS_OF_DEF[d.kind];
  const inBody = (line) => regions.some((r) => r.rel === d.rel && line >= r.start && line <= r.end);
  if (!kinds || !inBody(d.line)) return undefined;
  const candidates = (byFileName.get(`${d.rel}\t${d.name}`) ?? []).filter((n) => kinds.has(n.kind) && !inBody(n.start_line));
  return candidates.length === 1 ? { n: candidates[0], span: 0 } : undefined;
}

/** Whether node `n` lies inside one of the `macro_rules!` regions of its file. */
function inMacroRules(n, regionsByFile) {
  return (regionsByFile.get(n.path) ?? []).some((r) => n.start_line >= r.start && (n.end_line ?? n.start_line) <= r.end);
}

const bump = (counts, k) => (counts[k] = (counts[k] ?? 0) + 1);
const pairOf = (a, b) => `${a}\t${b}`;

/** Reference edges of `kind` as node pairs, with the reference edges whose ends both have a node. */
function truthPairs(edges, nodeOf) {
  const pairs = new Set();
  for (const [caller, callee] of edges) {
    const a = nodeOf.get(caller);
    const b = nodeOf.get(callee);
    if (a && b) pairs.add(pairOf(a, b));
  }
  return pairs;
}

/**
 * Why a travsr calls edge is not scored (a key of `setAside`), or undefined when it is. `ctx`:
 * the export, the match, the macro regions by file, the files the library build compiled.
 */
function setAsideReason(e, ctx) {
  const src = ctx.graph.nodes.get(e.src);
  const dst = ctx.graph.nodes.get(e.dst);
  if (!dst || dst.kind === 'external' || !dst.path) return 'callee outside the crate';
  if (!src?.path) return 'caller outside the crate';
  if (inMacroRules(src, ctx.regionsByFile)) return 'caller in a macro_rules! body';
  // lang-rust resolves the calls of bodies its macro_rules! expander wrote with confidence < 1;
  // save-analysis records no references in macro-written code, so the reference cannot see them.
  if (e.provenance === 'phase-b' && e.confidence !== undefined && e.confidence < 1)
    return 'call in a body a macro_rules! writes (the reference records none)';
  if (!ctx.compiledFiles.has(dst.path) && ownPackageDir(dst.path, ctx.sourceDir))
    return 'callee in another package of the repository (a path dependency: the reference reads the library crate alone)';
  if (!ctx.match.defsOf.has(e.dst) && writtenByMacroInvocation(dst, ctx))
    return 'callee a macro invocation writes (the reference records no definition there)';
  const defs = ctx.match.defsOf.get(e.src);
  if (!defs)
    return ctx.compiledFiles.has(src.path)
      ? 'caller not compiled (#[cfg] off, #[cfg(test)])'
      : 'caller in a file the library build does not compile';
  if (!defs.some((d) => FN_DEF_KINDS.has(d.kind))) return 'caller is no function (the reference has no calls outside function bodies)';
  return undefined;
}

/**
 * The directory of the package below the repository's root that holds `path` (criterion's
 * `plot/`, its `criterion-plot` path dependency), or undefined when the root package does.
 */
function ownPackageDir(path, sourceDir) {
  for (let dir = dirname(path); dir !== '.' && dir !== ''; dir = dirname(dir))
    if (existsSync(join(sourceDir, dir, 'Cargo.toml'))) return dir;
  return undefined;
}

/**
 * Whether a function node of the export is an item a macro invocation wrote (its lines hold an
 * invocation, `declare_error_trait!(Error: Sized + StdError);`, and no `fn <name>`): lang-rust
 * places such items at the invocation, and save-analysis records no definition for them, so an
 * edge to one cannot be checked. A cfg twin written out (`fn <name>` in its lines) is not one.
 */
function writtenByMacroInvocation(node, ctx) {
  if (!FN_NODE_KINDS.has(node.kind) || node.start_line == null) return false;
  const f = ctx.sources.get(node.path);
  if (!f) return false;
  const text = f.text.slice(
    f.lineStart[node.start_line] ?? f.text.length,
    f.lineStart[(node.end_line ?? node.start_line) + 1] ?? f.text.length,
  );
  return (
    /[A-Za-z_][A-Za-z0-9_]*!\s*[([{]/.test(text) &&
    !new RegExp(`\\bfn\\s+(r#)?${node.name.replace(/^r#/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)
  );
}

/**
 * Whether the reference is blind to the call of a travsr edge it lacks: the caller's text calls
 * the callee's name (`name(`, `.name(`, `name::<…>(`) and save-analysis has a resolved reference
 * at none of those sites. Either rustc never compiled the call (the arguments of a macro whose
 * expansion drops them, as clap's `debug!` without its feature; a block under `#[cfg]`) or
 * save-analysis did not record it (a call the expansion rebuilt from the macro's tokens, as
 * serde_json's `check_recursion! { self.eat_char(); … }`). When a site was resolved, to another
 * function or into std, the edge is wrong.
 */
function callSiteUnseen(e, ctx) {
  const src = ctx.graph.nodes.get(e.src);
  const dst = ctx.graph.nodes.get(e.dst);
  const f = ctx.sources.get(src.path);
  if (!f || src.start_line == null) return false;
  const resolved = new Set(ctx.callSites[src.path] ?? []);
  const end = f.lineStart[(src.end_line ?? src.start_line) + 1] ?? f.text.length;
  const out = {};
  let sites = 0;
  for (let i = f.lineStart[src.start_line] ?? f.text.length; i < end;) {
    const j = nextToken(f.text, i, out);
    if (out.t === 'id' && out.w === dst.name && isCallSite(f.text, j)) {
      sites++;
      const line = f.lineOf(i);
      const column = [...f.text.slice(f.lineStart[line], i)].length + 1;
      if (resolved.has(`${line}:${column}`)) return false;
    }
    i = j;
  }
  return sites > 0;
}

/** The kind of a false positive, for the breakdown. */
function falsePositiveKind(e, ctx) {
  const callee = ctx.match.defsOf.get(e.dst);
  if (!callee) return 'callee not compiled (a #[cfg] twin, test code)';
  if (callee.some((d) => ctx.traitImplMethods.has(d.key)))
    return 'callee is a trait impl method (the reference counts the call against the trait item)';
  return 'other';
}

/** The kind of a missed reference edge, for the breakdown. */
function missKind([caller, callee], ctx) {
  if (!ctx.match.nodeOf.has(caller)) return 'caller has no node';
  if (!ctx.match.nodeOf.has(callee)) return 'callee has no node';
  if (ctx.defByKey.get(callee)?.kind === 'TraitMethod') return 'callee is a trait item';
  return 'other';
}

/** Context shared by the scores of one export; `sourceDir` holds the files the export names. */
function scoringContext(truth, graph, sourceDir) {
  const regionsByFile = new Map();
  for (const r of truth.macroRegions) {
    if (!regionsByFile.has(r.rel)) regionsByFile.set(r.rel, []);
    regionsByFile.get(r.rel).push(r);
  }
  return {
    graph,
    match: matchDefinitions(truth, graph.nodes),
    regionsByFile,
    compiledFiles: new Set(truth.defs.map((d) => d.rel)),
    traitImplMethods: new Set(truth.implements.filter((r) => r[2] === 'method').map((r) => r[0])),
    defByKey: new Map(truth.defs.map((d) => [d.key, d])),
    callSites: truth.callSites,
    sources: new SourceCache(sourceDir),
    sourceDir,
  };
}

/**
 * The call-edge score of one export: `{ tp, fp, fn, precision, recall, scored, setAside,
 * falsePositiveKinds, missKinds, falsePositives, misses, fnDefs, fnDefsMatched }`.
 */
function scoreCalls(truth, graph, ctx) {
  const callEdges = truth.edges.filter((e) => e[2] === 'call');
  const calls = truthPairs(callEdges, ctx.match.nodeOf);
  const valueUses = truthPairs(
    truth.edges.filter((e) => e[2] === 'ref'),
    ctx.match.nodeOf,
  );
  const setAside = {};
  const falsePositiveKinds = {};
  const falsePositives = [];
  let tp = 0;
  let scored = 0;
  const ours = new Set();
  for (const e of graph.calls) {
    const pair = pairOf(e.src, e.dst);
    ours.add(pair);
    const reason = setAsideReason(e, ctx) ?? (!calls.has(pair) && valueUses.has(pair) ? 'callee only used as a value there' : undefined);
    if (reason) {
      bump(setAside, reason);
      continue;
    }
    if (!calls.has(pair) && callSiteUnseen(e, ctx)) {
      bump(setAside, 'no call site of that name resolved by rustc (macro arguments dropped or rebuilt by the expansion, #[cfg] blocks)');
      continue;
    }
    scored++;
    if (calls.has(pair)) tp++;
    else {
      const kind = falsePositiveKind(e, ctx);
      bump(falsePositiveKinds, kind);
      falsePositives.push({ e, kind });
    }
  }
  const missKinds = {};
  const misses = [];
  let found = 0;
  for (const edge of callEdges) {
    const a = ctx.match.nodeOf.get(edge[0]);
    const b = ctx.match.nodeOf.get(edge[1]);
    if (a && b && ours.has(pairOf(a, b))) found++;
    else {
      const kind = missKind(edge, ctx);
      bump(missKinds, kind);
      misses.push({ edge, kind });
    }
  }
  const fnDefs = truth.defs.filter((d) => FN_DEF_KINDS.has(d.kind));
  return {
    tp,
    fp: scored - tp,
    fn: callEdges.length - found,
    found,
    truthEdges: callEdges.length,
    precision: scored === 0 ? NaN : tp / scored,
    recall: callEdges.length === 0 ? NaN : found / callEdges.length,
    scored,
    setAside,
    falsePositiveKinds,
    missKinds,
    falsePositives,
    misses,
    fnDefs: fnDefs.length,
    fnDefsMatched: fnDefs.filter((d) => ctx.match.nodeOf.has(d.key)).length,
  };
}

/** One level of the implements score: `{ tp, fp, fn, truthRows, precision, recall, setAside }`. */
function scoreLevel(rows, edges, ctx) {
  const pairs = truthPairs(rows, ctx.match.nodeOf);
  let tp = 0;
  let scored = 0;
  let setAside = 0;
  const ours = new Set();
  for (const e of edges) {
    ours.add(pairOf(e.src, e.dst));
    // A trait or type outside the crate (std's Iterator), or not compiled: the reference cannot say.
    if (!ctx.match.defsOf.has(e.src) || !ctx.match.defsOf.has(e.dst)) {
      setAside++;
      continue;
    }
    scored++;
    if (pairs.has(pairOf(e.src, e.dst))) tp++;
  }
  const found = rows.filter(
    ([a, b]) => ctx.match.nodeOf.has(a) && ctx.match.nodeOf.has(b) && ours.has(pairOf(ctx.match.nodeOf.get(a), ctx.match.nodeOf.get(b))),
  ).length;
  return {
    tp,
    fp: scored - tp,
    fn: rows.length - found,
    truthRows: rows.length,
    precision: scored === 0 ? NaN : tp / scored,
    recall: rows.length === 0 ? NaN : found / rows.length,
    setAside,
  };
}

/**
 * The implements score against the reference's rows whose ends are both the crate's own:
 * `method` (impl method → trait item), `type` (type → trait) and `supertrait` (trait →
 * supertrait, from `implements` or `inherits` edges), with `other` the travsr implements edges
 * of none of these shapes (an associated type or const → the trait's).
 */
function scoreImplements(truth, graph, ctx) {
  const local = (kind) => truth.implements.filter((r) => r[2] === kind && !r[0].startsWith('extern:') && !r[1].startsWith('extern:'));
  const shapes = { method: [], type: [], supertrait: [] };
  let other = 0;
  for (const e of [...graph.implements, ...graph.inherits]) {
    const src = graph.nodes.get(e.src);
    const dst = graph.nodes.get(e.dst);
    if (dst?.kind === 'trait' && src?.kind === 'trait') shapes.supertrait.push(e);
    else if (e.kind !== 'implements') continue;
    else if (FN_NODE_KINDS.has(src?.kind)) shapes.method.push(e);
    else if (dst?.kind === 'trait') shapes.type.push(e);
    else other++;
  }
  return {
    method: scoreLevel(local('method'), shapes.method, ctx),
    type: scoreLevel(local('type'), shapes.type, ctx),
    supertrait: scoreLevel(local('supertrait'), shapes.supertrait, ctx),
    other,
  };
}

/** Both scores of one export of the repository `repo`, sharing the definition match. */
export function scoreExport(truth, exportFile, repo) {
  const graph = loadExport(exportFile);
  const ctx = scoringContext(truth, graph, repo);
  return {
    graph,
    calls: scoreCalls(truth, graph, ctx),
    implements: scoreImplements(truth, graph, ctx),
    defsMatched: ctx.match.defsMatched,
  };
}

/** `name (path:line)` of a node, for the disagreement files. */
const describeNode = (n) => (n ? `${n.qualified_name ?? n.name} (${n.path}:${n.start_line})` : '?');

/**
 * Writes the false positives and misses of a score to `<dir>/<corpus>.<label>.disagreements.txt`
 * (for reading; the table shows only the counts) and returns the file's path.
 */
export function writeDisagreements(dir, corpus, label, score, graph) {
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${corpus}.${label}.disagreements.txt`);
  const fps = score.falsePositives.map(
    ({ e, kind }) => `${describeNode(graph.nodes.get(e.src))} -> ${describeNode(graph.nodes.get(e.dst))}\t[${kind}]`,
  );
  const misses = score.misses.map(({ edge, kind }) => `${edge[0]} -> ${edge[1]}\t[${kind}]`);
  const text = [
    `# ${corpus} ${label}: travsr calls edges the reference lacks (${fps.length})`,
    ...fps.sort(),
    '',
    `# reference call edges travsr lacks (${misses.length}); keys are file:line-of-name:name`,
    ...misses.sort(),
    '',
  ].join('\n');
  writeFileSync(out, text);
  return out;
}
