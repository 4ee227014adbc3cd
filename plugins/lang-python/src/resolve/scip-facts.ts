/**
 * The bridge from the native analyzer's modules to the scip-python upgrade: a file's
 * definitions and call sites as {@link PythonFileFacts}, and the definition at a name position
 * anywhere in the program.
 */
import type { Node, VName } from '@travsr/sdk';
import type { DefinitionAt, PythonFileFacts } from '../scip/facts.js';
import { type ModuleNodes, ownerNode } from '../syntax/emit-definitions.js';
import type { DefIR } from '../syntax/module-ir.js';
import type { Mod, Program } from './program.js';

const LANGUAGE = 'python';

/** One module's facts, with the nodes its Phase B graph emitted. */
export function factsOf(mod: Mod, nodes: ModuleNodes): PythonFileFacts {
  const definitions: PythonFileFacts['definitions'] = [];
  mod.ir.defs.forEach((d, i) => {
    const node = nodes.defs[i];
    if (node) definitions.push({ node, nameLine: d.nameLine, nameCol: d.nameCol });
  });
  const callSites = mod.ir.calls.map((c) => ({
    caller: ownerNode(mod.ir, nodes, c.caller).vname,
    line: c.line,
    col: c.col,
    endCol: c.endCol,
  }));
  return { path: mod.path, definitions, callSites };
}

/** Looks definitions up by the position of their name, in any module of the program (read on demand). */
export function definitionAtIn(program: Program, corpus: string): DefinitionAt {
  const byModule = new Map<string, Map<string, DefIR>>();
  return (path, line, col) => {
    let index = byModule.get(path);
    if (!index) {
      index = new Map();
      for (const d of program.module(path)?.ir.defs ?? []) if (d.sig !== '') index.set(`${d.nameLine}:${d.nameCol}`, d);
      byModule.set(path, index);
    }
    const d = index.get(`${line}:${col}`);
    if (!d) return undefined;
    const vname: VName = { corpus, root: '', path, language: LANGUAGE, signature: d.sig };
    const node: Node = { vname, kind: d.kind, name: d.name };
    return node;
  };
}
