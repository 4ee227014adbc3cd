// The reference of the `rust-accuracy` benchmark, derived from one crate's rustc save-analysis
// JSON (the rls-data format rustc ≤ 1.63 writes with -Zsave-analysis): every definition of the
// crate, every reference with the definition the compiler resolved it to, and the impls. From it:
//
// - definitions `{ key, rel, kind, name, line, end }`: the crate's own items (locals, fields and
//   generic parameters left out); `line` is the line of the name (the only span save-analysis
//   gives), `end` the item's last line from the source text; a method declared in a trait is
//   kind `TraitMethod`;
// - call edges caller → callee: a reference to a local function, method or function of an
//   `extern` block whose next token is `(` (or `::<…>(`), attributed to the innermost function
//   around it. A trait method call is resolved by rustc to the trait's item (not to an impl),
//   so it counts against the trait item;
//   a reference that is no call (a function passed as a value) is kept apart as kind `ref`;
//   calls outside any function (const and static initializers) have no caller and are left out;
// - implements rows: impl method → the trait item it implements (`method`), self type → trait
//   (`type`), trait → supertrait (`supertrait`); a trait outside the crate is `extern:…`;
// - call sites: where rustc resolved a function or method reference (to any crate), so that a
//   call it never saw (in the arguments of a macro whose expansion drops them, like clap's
//   `debug!` with its feature off) can be told from one it resolved to another function;
// - the `macro_rules!` regions, whose bodies save-analysis cannot see.
//
// Spans are 1-based lines and 1-based columns in code points; their byte offsets are global to
// rustc's source map, never file-relative, so they are not used.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { SourceCache, isCallSite, itemEnd, macroRulesRegions } from './rust-accuracy-source.js';

const FN_KINDS = new Set(['Function', 'Method']);
/**
 * What a call edge may end at: a function or method, or a function of an `extern` block (rustc
 * resolves a call of one like any other; save-analysis writes it as a `ForeignFunction`).
 */
const CALLEE_KINDS = new Set([...FN_KINDS, 'ForeignFunction']);
/** Kinds that are no item: a variable, a field. */
const SKIPPED_KINDS = new Set(['Local', 'Field']);
/** The id of an inherent impl's missing trait. */
const NO_TRAIT = 4294967295;

const idKey = (id) => `${id.krate}:${id.index}`;
/** Crate 0 is the crate analysed; every other number is a dependency. */
const isLocal = (id) => id?.krate === 0;

/** The save-analysis JSON of crate `crateIdent` (`aho_corasick`) in a save-analysis directory (or that file). */
export function loadSaveAnalysis(input, crateIdent) {
  if (statSync(input).isFile()) return JSON.parse(readFileSync(input, 'utf8'));
  const candidates = readdirSync(input).filter(
    (f) => f.endsWith('.json') && (f.startsWith(`lib${crateIdent}-`) || f.startsWith(`${crateIdent}-`)),
  );
  for (const f of candidates) {
    const json = JSON.parse(readFileSync(join(input, f), 'utf8'));
    if (json.prelude?.crate_id?.name === crateIdent) return json;
  }
  throw new Error(`no save-analysis JSON for crate ${crateIdent} in ${input}`);
}

/** A definition as the cache keeps it (no save-analysis record, no text offsets). */
const plainDef = (r) => ({ key: r.key, rel: r.rel, kind: r.kind, name: r.name, line: r.line, end: r.end });

/**
 * Derives the reference from save-analysis JSON `sa`. `sourceDir` holds the crate's sources
 * (the same files rustc compiled: spans are read relative to the directory rustc ran in,
 * `sa.compilation.directory`, and looked up under `sourceDir`). Returns `{ defs, edges,
 * callSites, implements, macroRegions, stats }`; `edges` are `[callerKey, calleeKey, 'call' |
 * 'ref']`; `callSites` maps a file to the `line:column` of every function or method reference
 * rustc resolved there (to any crate): where a call site is missing, rustc never saw the call.
 */
export function deriveTruth(sa, sourceDir) {
  const rustcDir = sa.compilation.directory;
  const sources = new SourceCache(sourceDir);
  const relOf = (fileName) => {
    const rel = relative(rustcDir, resolve(rustcDir, fileName));
    return rel.startsWith('..') || rel.startsWith(sep) ? undefined : rel.split(sep).join('/');
  };
  const stats = {
    crate: sa.prelude.crate_id.name,
    saveAnalysisDefs: sa.defs.length,
    saveAnalysisRefs: sa.refs.length,
    saveAnalysisImpls: sa.impls.length,
  };
  const { defs, byId } = definitions(sa, relOf, sources, stats);
  const { edges, callSites } = callEdges(sa, relOf, sources, defs, byId, stats);
  const implementsRows = implementsOf(sa, defs, byId, stats);
  const macroRegions = macroRulesRegions(sourceDir, sources);
  stats.macroRulesRegions = macroRegions.length;
  return { defs: defs.map(plainDef), edges, callSites, implements: implementsRows, macroRegions, stats };
}

// ---- definitions ----

/** Ids of the items declared inside the crate's traits (a method there is a `TraitMethod`). */
function traitItemIds(sa) {
  const ids = new Set();
  for (const d of sa.defs) if (d.kind === 'Trait') for (const c of d.children) ids.add(idKey(c));
  return ids;
}

/** How an item of this kind ends: at `;`, at a variant's `,`, or at its block's `}`. */
const extentMode = (kind) => (['Const', 'Static', 'Type'].includes(kind) ? 'semi' : /Variant$/.test(kind) ? 'variant' : 'block');

/**
 * A module whose span is a whole file (the crate root, `mod x;`) rather than the name of an
 * inline `mod x { … }`.
 */
const isFileModule = (d) =>
  d.kind === 'Mod' &&
  (d.span.line_end > d.span.line_start || (d.span.file_name === d.value && d.span.line_start === 1 && d.span.column_start === 1));

/** The crate's definitions with their extents (`sIdx`…`eIdx` in the text, `line`…`end` in lines). */
function definitions(sa, relOf, sources, stats) {
  const inTraits = traitItemIds(sa);
  const defs = [];
  const byId = new Map();
  const seen = new Map();
  stats.defKinds = {};
  stats.defsOutsideCrate = 0;
  stats.genericParams = 0;
  stats.duplicateDefs = 0;
  for (const d of sa.defs) {
    if (!isLocal(d.id) || SKIPPED_KINDS.has(d.kind)) continue;
    if (d.kind === 'Type' && d.qualname.includes('$HirId')) {
      stats.genericParams++;
      continue;
    }
    const rel = relOf(d.span.file_name);
    if (!rel) {
      stats.defsOutsideCrate++;
      continue;
    }
    const kind = d.kind === 'Method' && inTraits.has(idKey(d.id)) ? 'TraitMethod' : d.kind;
    const rec = {
      d,
      rel,
      kind,
      name: d.name,
      line: d.span.line_start,
      key: `${rel}:${d.span.line_start}:${d.name}`,
      ...extent(d, sources.get(rel)),
    };
    // A macro that takes an item's name from its invocation (bitflags!) can define it twice there.
    const dup = `${rec.key}\t${kind}`;
    if (seen.has(dup)) {
      stats.duplicateDefs++;
      byId.set(idKey(d.id), seen.get(dup));
      continue;
    }
    seen.set(dup, rec);
    defs.push(rec);
    byId.set(idKey(d.id), rec);
    stats.defKinds[kind] = (stats.defKinds[kind] ?? 0) + 1;
  }
  defs.sort((a, b) => a.rel.localeCompare(b.rel) || a.line - b.line || a.name.localeCompare(b.name));
  stats.defs = defs.length;
  stats.fnDefs = defs.filter((r) => FN_KINDS.has(r.d.kind)).length;
  return { defs, byId };
}

/** `{ sIdx, eIdx, end }` of a definition: from its name to the end of the item, or the whole file of a file module. */
function extent(d, f) {
  if (!f) return { sIdx: undefined, eIdx: undefined, end: d.span.line_end };
  if (d.kind === 'Mod' && isFileModule(d)) return { sIdx: undefined, eIdx: undefined, end: f.lines };
  const sIdx = f.indexOf(d.span.line_start, d.span.column_start);
  const nameEnd = f.indexOf(d.span.line_end, d.span.column_end);
  const eIdx = itemEnd(f.text, nameEnd, extentMode(d.kind));
  return { sIdx, eIdx, end: f.lineOf(eIdx) };
}

// ---- call edges ----

/** The innermost function or method of `rel` whose extent holds index `idx`, from `fnsByFile`. */
function enclosingFunction(fnsByFile, rel, idx) {
  let best;
  for (const r of fnsByFile.get(rel) ?? []) {
    if (r.sIdx <= idx && idx <= r.eIdx && (!best || r.eIdx - r.sIdx < best.eIdx - best.sIdx)) best = r;
  }
  return best;
}

/** Every reference to a local function or method, as a `call` or `ref` edge from the function around it. */
function callEdges(sa, relOf, sources, defs, byId, stats) {
  const fnsByFile = new Map();
  for (const r of defs) {
    if (!FN_KINDS.has(r.d.kind) || r.sIdx === undefined) continue;
    if (!fnsByFile.has(r.rel)) fnsByFile.set(r.rel, []);
    fnsByFile.get(r.rel).push(r);
  }
  const st = { refsToDependencies: 0, refsOutsideFunctions: 0, unresolvedLocalRefs: 0, callSites: 0, refSites: 0, traitItemCallSites: 0 };
  const seenSites = new Set();
  const edges = new Map();
  const callSites = {};
  for (const r of sa.refs) {
    if (r.kind === 'Function') recordSite(callSites, relOf(r.span.file_name), r.span);
    if (!isLocal(r.ref_id)) {
      if (r.kind === 'Function') st.refsToDependencies++;
      continue;
    }
    const target = byId.get(idKey(r.ref_id));
    if (!target) {
      if (r.kind === 'Function') st.unresolvedLocalRefs++;
      continue;
    }
    if (!CALLEE_KINDS.has(target.d.kind)) continue;
    const site = `${r.span.file_name}:${r.span.line_start}:${r.span.column_start}:${target.key}`;
    if (seenSites.has(site)) continue;
    seenSites.add(site);
    const rel = relOf(r.span.file_name);
    const f = rel && sources.get(rel);
    if (!f) continue;
    const caller = enclosingFunction(fnsByFile, rel, f.indexOf(r.span.line_start, r.span.column_start));
    if (!caller) {
      st.refsOutsideFunctions++;
      continue;
    }
    const kind = isCallSite(f.text, f.indexOf(r.span.line_end, r.span.column_end)) ? 'call' : 'ref';
    if (kind === 'call') {
      st.callSites++;
      if (target.kind === 'TraitMethod') st.traitItemCallSites++;
    } else st.refSites++;
    edges.set(`${caller.key}\t${target.key}\t${kind}`, [caller.key, target.key, kind]);
  }
  const list = [...edges.values()].sort((a, b) => a.join('\t').localeCompare(b.join('\t')));
  const traitItems = new Set(defs.filter((r) => r.kind === 'TraitMethod').map((r) => r.key));
  Object.assign(stats, st, {
    callEdges: list.filter((e) => e[2] === 'call').length,
    refEdges: list.filter((e) => e[2] === 'ref').length,
    callEdgesToTraitItems: list.filter((e) => e[2] === 'call' && traitItems.has(e[1])).length,
  });
  return { edges: list, callSites };
}

/** Adds `line:column` of a function or method reference (any crate's) to its file's list. */
function recordSite(sites, rel, span) {
  if (!rel) return;
  (sites[rel] ??= []).push(`${span.line_start}:${span.column_start}`);
}

// ---- implements ----

/**
 * `[from, to, kind]` rows: `method` (impl method → trait item), `type` (self type → trait) and
 * `supertrait` (trait → supertrait). An end outside the crate is `extern:<crate>:<index>`.
 */
function implementsOf(sa, defs, byId, stats) {
  const crateNames = new Map(sa.prelude.external_crates.map((c) => [c.num, c.id.name]));
  const keyOf = (id) => byId.get(idKey(id))?.key ?? `extern:${crateNames.get(id.krate) ?? id.krate}:${id.index}`;
  const rows = [];
  for (const r of defs) if (r.d.kind === 'Method' && r.d.decl_id) rows.push([r.key, keyOf(r.d.decl_id), 'method']);
  for (const rel of sa.relations) {
    const known = byId.has(idKey(rel.from)) || byId.has(idKey(rel.to));
    if (!rel.kind.Impl) {
      // SuperTrait: `from` is the supertrait, `to` the trait declaring it.
      if (known) rows.push([keyOf(rel.to), keyOf(rel.from), 'supertrait']);
    } else if (rel.to.krate !== NO_TRAIT && known) rows.push([keyOf(rel.from), keyOf(rel.to), 'type']);
  }
  const local = (kind) => rows.filter((x) => x[2] === kind && !x[0].startsWith('extern:') && !x[1].startsWith('extern:')).length;
  stats.implementsMethod = rows.filter((x) => x[2] === 'method').length;
  stats.implementsMethodLocal = local('method');
  stats.implementsTypeLocal = local('type');
  stats.supertraitLocal = local('supertrait');
  return rows;
}
