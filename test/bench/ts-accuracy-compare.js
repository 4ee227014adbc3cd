// Compares call edges of a SCIP index (scip-typescript, the compiler-grade reference) with the
// call edges of a Travsr graph export, in one key space: caller = the innermost definition of
// the Travsr graph around the call site (or the file), callee = the SCIP symbol of the called
// definition. See README.md ("ts-accuracy: how edges are compared").
import { createRequire } from 'node:module';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const DEFINITION = 1; // scip.SymbolRole.Definition

/** Reads a SCIP index with scip-typescript's own generated protobuf bindings. */
export function loadScip(scipModulePath, indexPath) {
  const require = createRequire(import.meta.url);
  const { scip } = require(scipModulePath);
  const index = scip.Index.deserializeBinary(readFileSync(indexPath));
  return index.documents.map((d) => ({
    path: d.relative_path,
    occurrences: d.occurrences.map((o) => {
      const r = o.range;
      return {
        line: r[0],
        start: r[1],
        end: r.length === 3 ? r[2] : r[3],
        symbol: o.symbol,
        definition: (o.symbol_roles & DEFINITION) !== 0,
      };
    }),
  }));
}

// ---- syntax facts of the corpus (the TypeScript parser, no checker) ----

/** The identifier a call is named by, as the reference records it (same rule for both sides). */
function calleeName(expr) {
  while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr) || ts.isSatisfiesExpression(expr))
    expr = expr.expression;
  if (ts.isIdentifier(expr) || ts.isPrivateIdentifier(expr)) return expr;
  if (ts.isPropertyAccessExpression(expr)) return expr.name;
  if (ts.isElementAccessExpression(expr) && ts.isStringLiteralLike(expr.argumentExpression)) return expr.argumentExpression;
  return undefined;
}

/**
 * Per file: the positions (`line:char`, 0-based, UTF-16) of callee names of call sites — calls,
 * `new`, tagged templates, decorators, JSX components — and, for every declared name, the
 * kind of its declaration and the position of the name an export specifier renames.
 */
export function syntaxFacts(root, paths) {
  const files = new Map();
  const renames = [];
  for (const path of paths) {
    const text = readFileSync(join(root, path), 'utf8');
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const pos = (n) => {
      const p = sf.getLineAndCharacterOfPosition(n.getStart(sf));
      return `${p.line}:${p.character}`;
    };
    const callSites = new Set();
    const declKind = new Map();
    const exportAlias = new Map();
    const visit = (n) => {
      let callee;
      if (ts.isCallExpression(n) || ts.isNewExpression(n)) callee = calleeName(n.expression);
      else if (ts.isTaggedTemplateExpression(n)) callee = calleeName(n.tag);
      else if (ts.isDecorator(n) && !ts.isCallExpression(n.expression)) callee = calleeName(n.expression);
      else if (
        (ts.isJsxOpeningElement(n) || ts.isJsxSelfClosingElement(n)) &&
        !(ts.isIdentifier(n.tagName) && /^[a-z]/.test(n.tagName.text))
      )
        callee = calleeName(n.tagName);
      if (callee) callSites.add(pos(callee));
      if (ts.isConstructorDeclaration(n)) declKind.set(pos(n), 'Constructor');
      if (ts.isExportSpecifier(n) && n.propertyName) exportAlias.set(pos(n.name), pos(n.propertyName));
      if ((ts.isExportSpecifier(n) || ts.isImportSpecifier(n)) && n.propertyName) renames.push([n.name.text, n.propertyName.text]);
      if (ts.isImportClause(n) && n.name) renames.push([n.name.text, 'default']);
      ts.forEachChild(n, visit);
    };
    // Declaration names: record the kind on the name itself.
    const mark = (n) => {
      if ('name' in n && n.name && typeof n.name === 'object' && 'kind' in n.name) declKind.set(pos(n.name), ts.SyntaxKind[n.kind]);
      ts.forEachChild(n, mark);
    };
    mark(sf);
    ts.forEachChild(sf, visit);
    files.set(path, { text, lines: text.split('\n'), callSites, declKind, exportAlias });
  }
  // `import { a as b }`, `export { a as b }`, `import b from`: b may stand for a (or default).
  const aliases = new Map();
  for (const [alias, original] of renames) aliases.set(alias, (aliases.get(alias) ?? new Set()).add(original));
  return { files, aliases };
}

/** Declarations that are not something one calls: a reference to them at a call site is a namespace or type meaning of a merged name. */
const NOT_CALLABLE = new Set(['InterfaceDeclaration', 'TypeAliasDeclaration', 'ModuleDeclaration', 'TypeParameter', 'EnumDeclaration']);

/** Locals, parameters (`f().(x)`) and type parameters (`[T]`): not definitions of the graph. */
function isLocal(symbol) {
  return symbol.startsWith('local ') || symbol.endsWith(')') || symbol.endsWith(']');
}

/** UTF-8 byte column of a UTF-16 character offset on a line. */
function byteCol(line, ch) {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(line) ? ch : Buffer.byteLength(line.slice(0, ch), 'utf8');
}

function descriptorName(symbol) {
  // `scip-typescript npm zod 3.25.76 src/v3/`types.ts`/ZodType#parse().` → parse
  const m = /([^/#.`:()[\]]+|`[^`]+`)(\(\)\.|\.|#|\/|:)$/.exec(symbol.replace(/\(\+\d+\)/g, ''));
  if (!m) return undefined;
  const name = m[1].replace(/^`|`$/g, '').replace(/^"(.*)"$/, '$1');
  // scip-typescript numbers the properties of object literals: `string0:` is the first `string`.
  return m[2] === ':' ? name.replace(/\d+$/, '') : name;
}

// ---- the Travsr graph ----

/** Nodes and call edges of a `travsr graph export --format jsonl`. */
export function loadExport(jsonlPath) {
  const nodes = new Map();
  const edges = [];
  for (const line of readFileSync(jsonlPath, 'utf8').split('\n')) {
    if (!line) continue;
    const o = JSON.parse(line);
    if (o.type === 'node') nodes.set(o.id, o);
    else if (o.kind === 'calls') edges.push(o);
  }
  return { nodes, edges };
}

/** Innermost-definition lookup over the nodes of one file (ranges: 1-based lines, UTF-8 byte columns). */
class Scopes {
  constructor(nodes) {
    this.byPath = new Map();
    this.fileNode = new Map();
    for (const n of nodes.values()) {
      if (n.kind === 'file') this.fileNode.set(n.path, n.id);
      else if (n.start_line != null) {
        const list = this.byPath.get(n.path) ?? [];
        list.push(n);
        this.byPath.set(n.path, list);
      }
    }
  }

  static contains(n, line, col) {
    const afterStart = line > n.start_line || (line === n.start_line && col >= n.start_col);
    const beforeEnd = line < n.end_line || (line === n.end_line && col < n.end_col);
    return afterStart && beforeEnd;
  }

  /** Id of the innermost node around (line, col), else the file node's id. */
  innermost(path, line, col) {
    let best;
    for (const n of this.byPath.get(path) ?? []) {
      if (!Scopes.contains(n, line, col)) continue;
      if (!best || Scopes.contains(best, n.start_line, n.start_col)) best = n;
    }
    return best?.id ?? this.fileNode.get(path) ?? `file:${path}`;
  }
}

/**
 * The comparison. Returns precision/recall of the Phase B and Phase A call edges against the
 * SCIP reference, counts of what was left out of the comparison, and samples of disagreements.
 */
export function compareCalls({ docs, facts: syntax, graph }) {
  const facts = syntax.files;
  const scopes = new Scopes(graph.nodes);
  const defs = new Map(); // symbol → [{ path, line, start }]
  const byPos = new Map(); // `${path}:${line}:${start}` → [symbol]
  for (const d of docs) {
    for (const o of d.occurrences) {
      const k = `${d.path}:${o.line}:${o.start}`;
      byPos.set(k, [...(byPos.get(k) ?? []), o.symbol]);
      if (o.definition && !isLocal(o.symbol))
        defs.set(o.symbol, [...(defs.get(o.symbol) ?? []), { path: d.path, line: o.line, start: o.start }]);
    }
  }

  // An export specifier `export { a as b }` defines `b`; follow it to what `a` refers to.
  const canonical = (symbol, depth = 0) => {
    const def = defs.get(symbol)?.[0];
    if (!def || depth > 8) return symbol;
    const f = facts.get(def.path);
    const from = f?.exportAlias.get(`${def.line}:${def.start}`);
    if (!from) return symbol;
    const target = (byPos.get(`${def.path}:${from}`) ?? []).find((s) => !isLocal(s));
    return target ? canonical(target, depth + 1) : symbol;
  };
  const kindOfDef = (symbol) => {
    const def = defs.get(symbol)?.[0];
    return def ? facts.get(def.path)?.declKind.get(`${def.line}:${def.start}`) : undefined;
  };

  // Reference: SCIP occurrences at call sites.
  const excluded = { local: 0, external: 0, notCallable: 0, unnamed: 0 };
  const reference = new Map(); // key → sample location
  // Call sites where the reference names no target: a `local` symbol the document never
  // defines (scip-typescript gives one to what it reaches through `export { … } from`).
  const unnamed = new Set(); // `${caller}\0${callee text}`
  for (const d of docs) {
    const f = facts.get(d.path);
    if (!f) continue;
    const definedLocals = new Set(d.occurrences.filter((o) => o.definition && o.symbol.startsWith('local ')).map((o) => o.symbol));
    for (const o of d.occurrences) {
      if (o.definition || !f.callSites.has(`${o.line}:${o.start}`)) continue;
      if (o.symbol.startsWith('local ') && !definedLocals.has(o.symbol)) {
        excluded.unnamed++;
        const line = f.lines[o.line] ?? '';
        unnamed.add(`${scopes.innermost(d.path, o.line + 1, byteCol(line, o.start))}\u0000${line.slice(o.start, o.end)}`);
        continue;
      }
      if (isLocal(o.symbol)) {
        excluded.local++;
        continue;
      }
      if (!defs.has(o.symbol)) {
        excluded.external++;
        continue;
      }
      if (NOT_CALLABLE.has(kindOfDef(o.symbol) ?? '')) {
        excluded.notCallable++;
        continue;
      }
      const line = f.lines[o.line] ?? '';
      const caller = scopes.innermost(d.path, o.line + 1, byteCol(line, o.start));
      const key = `${caller}\u0000${canonical(o.symbol)}`;
      if (!reference.has(key)) reference.set(key, `${d.path}:${o.line + 1}:${o.start + 1}`);
    }
  }

  // Travsr: a callee node is the SCIP symbol defined inside its range under its name.
  const defsInFile = new Map();
  for (const [symbol, list] of defs)
    for (const def of list) defsInFile.set(def.path, [...(defsInFile.get(def.path) ?? []), { ...def, symbol }]);
  const symbolCache = new Map();
  const symbolOfNode = (n) => {
    if (symbolCache.has(n.id)) return symbolCache.get(n.id);
    let found;
    const f = facts.get(n.path);
    for (const def of defsInFile.get(n.path) ?? []) {
      const line = f?.lines[def.line] ?? '';
      if (!Scopes.contains(n, def.line + 1, byteCol(line, def.start))) continue;
      const name = descriptorName(def.symbol);
      if (name === n.name || (n.kind === 'constructor' && name === '<constructor>')) {
        found = def.symbol;
        break;
      }
    }
    symbolCache.set(n.id, found);
    return found;
  };
  const docByPath = new Map(docs.map((d) => [d.path, d]));
  const localDef = (n) => {
    // A definition SCIP calls local (a nested function): left out on both sides.
    const f = facts.get(n.path);
    const d = docByPath.get(n.path);
    if (d) {
      for (const o of d.occurrences) {
        if (!o.definition || !o.symbol.startsWith('local ')) continue;
        if (Scopes.contains(n, o.line + 1, byteCol(f?.lines[o.line] ?? '', o.start)) && o.start >= 0) {
          const text = (f?.lines[o.line] ?? '').slice(o.start, o.end);
          if (text === n.name) return true;
        }
      }
    }
    return false;
  };

  const side = (provenance) => {
    const keys = new Map();
    let leftOut = 0;
    for (const e of graph.edges) {
      if (e.provenance !== provenance) continue;
      const dst = graph.nodes.get(e.dst);
      if (!dst || dst.kind === 'file') continue;
      const sym = symbolOfNode(dst);
      if (sym === undefined && localDef(dst)) {
        leftOut++;
        continue;
      }
      const key = `${e.src}\u0000${sym ? canonical(sym) : `node:${dst.path}#${dst.qualified_name ?? dst.name}`}`;
      keys.set(key, e);
    }
    // An edge the reference lacks from a caller with a call site the reference could not
    // name, under the callee's name or an alias of it, is not verifiable: left out.
    const unverifiable = [];
    for (const [k, e] of keys) {
      if (reference.has(k)) continue;
      const dst = graph.nodes.get(e.dst);
      const names = [dst.name, ...[...syntax.aliases].filter(([, originals]) => originals.has(dst.name)).map(([alias]) => alias)];
      if (names.some((n) => unnamed.has(`${e.src}\u0000${n}`))) unverifiable.push(k);
    }
    for (const k of unverifiable) keys.delete(k);
    let hit = 0;
    for (const k of keys.keys()) if (reference.has(k)) hit++;
    const fp = [...keys.keys()].filter((k) => !reference.has(k));
    const fn = [...reference.keys()].filter((k) => !keys.has(k));
    return {
      edges: keys.size,
      leftOut,
      unverifiable,
      hit,
      precision: keys.size === 0 ? NaN : hit / keys.size,
      recall: reference.size === 0 ? NaN : hit / reference.size,
      falsePositives: fp,
      falseNegatives: fn,
    };
  };

  const describe = (key) => {
    const [caller, callee] = key.split('\u0000');
    const n = graph.nodes.get(caller);
    return `${n ? `${n.path}#${n.qualified_name ?? n.name}` : caller} -> ${callee}${reference.has(key) ? ` (at ${reference.get(key)})` : ''}`;
  };
  return { reference: reference.size, excluded, phaseB: side('phase-b'), phaseA: side('phase-a'), describe };
}

/** Relative paths of the TypeScript files below `root/dir`. */
export function listTypeScript(root, dir = 'src') {
  const out = [];
  const walk = (rel) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts|cts)$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
