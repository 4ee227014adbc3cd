/**
 * A file's items as graph nodes — the same in both phases, so that Phase B's edges land on the
 * nodes Phase A stored — and its Phase A refs (calls and uses as written, for the host's name
 * matching when Phase B does not run).
 */
import type { FileGraphBuilder, Node } from '@travsr/sdk';
import { cleanReferenceName } from '@travsr/sdk/tree-sitter';
import type { Node as TsNode } from 'web-tree-sitter';
import { ownDescendants } from './extract.js';
import { type FileIR, nodeKindOf } from './file-ir.js';
import type { LineIndex } from '@travsr/sdk/tree-sitter';

/** Signature of the module node of a file (the file node has `""`). */
export const MODULE_SIGNATURE = '<module>';

/** The nodes of one file: its module node and one per emitted item (by item index). */
export interface FileNodes {
  module: Node;
  items: (Node | undefined)[];
  /** For an impl of a type the file declares: that type's node (by the impl's item index). */
  implTypes: Map<number, Node>;
}

/**
 * Adds the module node and every item (with `contains` edges) to `graph`.
 *
 * @param modulePath the file's module path (`regex::re_unicode`), the prefix of qualified names
 */
export function emitDefinitions(ir: FileIR, graph: FileGraphBuilder, modulePath: string): FileNodes {
  const sep = modulePath.lastIndexOf('::');
  const module = graph.define({
    kind: 'module',
    name: modulePath.slice(sep + 2 > 1 ? sep + 2 : 0) || ir.path,
    qualifiedName: modulePath,
    signature: MODULE_SIGNATURE,
    range: ir.range,
    ...(ir.doc ? { skeleton: ir.doc } : {}),
  });
  const items: (Node | undefined)[] = [];
  const byPath = new Map<string, Node>();
  const implTypes = new Map<number, Node>();
  ir.items.forEach((it, i) => {
    if (it.kind === 'impl') {
      const type = byPath.get(implTypePath(it.path));
      if (type) implTypes.set(i, type);
    }
    if (it.sig === '') return;
    let parent: Node | undefined;
    for (let p = it.parent; p !== -1 && !parent; p = ir.items[p]!.parent) {
      const container = ir.items[p]!;
      // An impl's members sit under the type when the file declares it, else under the module.
      parent = container.kind === 'impl' ? implTypes.get(p) : items[p];
      if (container.kind === 'impl' && !parent) break;
    }
    const parentKind = it.parent === -1 ? undefined : ir.items[it.parent]!.kind;
    const node = graph.define({
      kind: nodeKindOf(it, parentKind),
      name: it.name,
      qualifiedName: modulePath ? `${modulePath}::${it.path}` : it.path,
      signature: it.sig,
      range: it.range,
      ...(it.skeleton ? { skeleton: it.skeleton } : {}),
      parent: parent ?? module,
    });
    items[i] = node;
    if (!byPath.has(it.path)) byPath.set(it.path, node);
  });
  return { module, items, implTypes };
}

/** `a::<S as Tr>` and `a::S` name the type `a::S`. */
function implTypePath(path: string): string {
  const m = /^(.*?)(?:::)?<([^ ]+) as [^>]+>$/.exec(path);
  return m ? (m[1] ? `${m[1]}::${m[2]}` : m[2]!) : path;
}

/** The node calls inside item `i` are attributed to: the nearest emitted item, else the module. */
export function ownerNode(ir: FileIR, nodes: FileNodes, i: number): Node {
  for (let j = i; j !== -1; j = ir.items[j]!.parent) if (nodes.items[j]) return nodes.items[j]!;
  return nodes.module;
}

/**
 * The node the calls of body `i` are attributed to. A `const` or `static` declared in a function
 * is part of that function's code (`static DEFAULT: ValueParser = ValueParser::string();` inside
 * `get_value_parser`, as rustc attributes it); any other body is its item's.
 */
export function callerNode(ir: FileIR, nodes: FileNodes, i: number): Node {
  const it = ir.items[i]!;
  if (it.local && (it.kind === 'const' || it.kind === 'static'))
    for (let j = it.parent; j !== -1; j = ir.items[j]!.parent) if (ir.items[j]!.kind === 'fn') return ownerNode(ir, nodes, j);
  return ownerNode(ir, nodes, i);
}

/** Phase A refs: every call as written in a function body or a const or static value, and every `use` path. */
export function emitRefs(
  ir: FileIR,
  graph: FileGraphBuilder,
  nodes: FileNodes,
  bodies: Map<number, TsNode>,
  lines: LineIndex,
  expanded: ReadonlySet<number>,
): void {
  for (const [fn, body] of bodies) {
    const owner = callerNode(ir, nodes, fn);
    // A body a macro wrote: its calls are placed at the invocation.
    const at = expanded.has(fn) ? ir.items[fn]!.range : undefined;
    for (const c of ownDescendants(body, 'call_expression')) {
      let f = c.childForFieldName('function');
      if (f?.type === 'generic_function') f = f.childForFieldName('function');
      const written = f ? cleanReferenceName(f.type === 'field_expression' ? (f.childForFieldName('field')?.text ?? '') : f.text) : '';
      if (written && f) graph.ref(owner, 'calls', written, at ?? lines.range(f.startPosition, f.endPosition));
    }
  }
  for (const t of ir.typeRefs) {
    const src = t.kind === 'implements' ? nodes.implTypes.get(t.owner) : ownerNode(ir, nodes, t.owner);
    if (src) graph.ref(src, t.kind, t.type.segs.join('::'));
  }
  for (const u of ir.uses) {
    if (u.glob || u.segs.length === 0) continue;
    graph.ref(graph.fileNode, 'imports', u.segs.join('::'), u.range);
  }
}
