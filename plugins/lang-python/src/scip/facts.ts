// What the native analyzer knows about a Python file, handed to the scip-python upgrade so
// that it can map scip-python's occurrences onto the analyzer's own nodes. Positions here are
// SCIP's: columns count UTF-16 code units, as scip-python does, so no conversion is needed.
import type { Node, VName } from '@travsr/sdk';

/** One file's definitions and call sites, as Phase A/B of the native analyzer found them. */
export interface PythonFileFacts {
  path: string;
  /** every definition node with the position of its name identifier (1-based line, 0-based column in UTF-16 code units of the source text) */
  definitions: Array<{ node: Node; nameLine: number; nameCol: number }>;
  /** every call site: position of the callee name (`f` in `a.f(x)`), and the caller: the innermost enclosing definition's VName, or the file node's */
  callSites: Array<{ caller: VName; line: number; col: number; endCol: number }>;
}

/** One call site of {@link PythonFileFacts.callSites}. */
export type PythonCallSite = PythonFileFacts['callSites'][number];

/**
 * The definition whose name identifier starts at a position (1-based line, UTF-16 column) of
 * a repository file, over every file of the program; `undefined` when there is none.
 */
export type DefinitionAt = (path: string, line: number, col: number) => Node | undefined;
