/**
 * A module's definitions as graph nodes — the same in both phases, so that Phase B's edges
 * land on the nodes Phase A stored — and its Phase A refs (names as written, for the host's
 * name matching when Phase B does not run).
 */
import type { Node } from '@travsr/sdk';
import type { FileGraphBuilder } from '@travsr/sdk';
import type { ModuleIR } from './module-ir.js';

/** Signature of the module node (the file node has `""`). */
export const MODULE_SIGNATURE = '<module>';

/** The nodes of one module: its module node and one per emitted definition (by def index). */
export interface ModuleNodes {
  module: Node;
  /** Indexed like `ModuleIR.defs`; undefined for anonymous lambdas. */
  defs: (Node | undefined)[];
}

/**
 * Adds the module node and every definition (with `contains` edges) to `graph`.
 *
 * @param moduleName dotted module name (`requests.sessions`), the prefix of qualified names
 */
export function emitDefinitions(ir: ModuleIR, graph: FileGraphBuilder, moduleName: string): ModuleNodes {
  const lastDot = moduleName.lastIndexOf('.');
  const module = graph.define({
    kind: 'module',
    name: moduleName.slice(lastDot + 1) || ir.path,
    qualifiedName: moduleName,
    signature: MODULE_SIGNATURE,
    range: ir.range,
    ...(ir.doc ? { skeleton: `"""${ir.doc}"""` } : {}),
  });
  const defs: (Node | undefined)[] = [];
  ir.defs.forEach((d, i) => {
    if (d.sig === '') return;
    const parent = d.parent >= 0 ? nearestEmitted(ir, defs, d.parent) : undefined;
    defs[i] = graph.define({
      kind: d.kind,
      name: d.name,
      qualifiedName: moduleName ? `${moduleName}.${d.qname}` : d.qname,
      signature: d.sig,
      range: d.range,
      ...(d.skeleton ? { skeleton: d.skeleton } : {}),
      parent: parent ?? module,
    });
  });
  return { module, defs };
}

/** The node a call or reference inside definition `i` is attributed to: the nearest named definition, else the module. */
export function ownerNode(ir: ModuleIR, nodes: ModuleNodes, i: number): Node {
  return (i >= 0 ? nearestEmitted(ir, nodes.defs, i) : undefined) ?? nodes.module;
}

function nearestEmitted(ir: ModuleIR, defs: readonly (Node | undefined)[], i: number): Node | undefined {
  for (let j = i; j >= 0; j = ir.defs[j]!.parent) if (defs[j]) return defs[j];
  return undefined;
}

/** Phase A refs: calls, imports, bases and annotations named as written. */
export function emitRefs(ir: ModuleIR, graph: FileGraphBuilder, nodes: ModuleNodes): void {
  for (const c of ir.calls) graph.ref(ownerNode(ir, nodes, c.caller), 'calls', c.written, c.range);
  for (const imp of ir.imports) for (const name of imp.written) graph.ref(graph.fileNode, 'imports', name, imp.range);
  for (const t of ir.typeRefs) if (t.written) graph.ref(ownerNode(ir, nodes, t.owner), t.kind, t.written, t.range);
}
