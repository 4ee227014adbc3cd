import type { NodeKind } from '@travsr/sdk';
import type ts from 'typescript';
import { assignSignatures } from './declarations/signatures.js';
import { DeclarationWalk } from './declarations/walk.js';

export { isTypeSyntax, propertyNameText, unwrapExpression } from './declarations/declaration-syntax.js';

/**
 * One definition of a source file, as both phases see it. Phase A turns these into nodes;
 * Phase B addresses the same nodes by `signature`, so the collection below must depend on
 * the syntax tree alone (never on the checker) and be deterministic.
 */
export interface Declaration {
  kind: NodeKind;
  /** Short name as declared (`parse`, `constructor`, `default`, `[Symbol.iterator]`). */
  name: string;
  /** Dotted name including enclosing definitions (`Parser.parse`, `outer.inner`). */
  qualifiedName: string;
  /** VName signature, unique in the file: the qualified name, disambiguated (see {@link collectDeclarations}). */
  signature: string;
  /** The node whose extent is the definition (`export const f = () => …` is the whole statement). */
  rangeNode: ts.Node;
  /** Where the header shown in the skeleton ends (a UTF-16 offset). */
  headerEnd: number;
  parent: Declaration | undefined;
  /** The declaration calls land on when this one is an overload signature (itself otherwise). */
  primary: Declaration;
  /** On the primary of an overload group: the other signatures, in source order. */
  overloads?: Declaration[];
}

/** Every definition of a file, in source order, with the look-ups both phases need. */
export interface FileDeclarations {
  list: Declaration[];
  /** By the node that opens the definition's scope (its `rangeNode`). */
  byScope: Map<ts.Node, Declaration>;
  /** By every node the checker may name as a declaration of it (the declaration, its function expression, …). */
  byDeclaration: Map<ts.Node, Declaration>;
}

const cache = new WeakMap<ts.SourceFile, FileDeclarations>();

/** {@link collectDeclarations}, once per parsed tree (Phase B reuses what Phase A collected on the same tree). */
export function declarationsOf(sf: ts.SourceFile): FileDeclarations {
  let d = cache.get(sf);
  if (!d) {
    d = collectDeclarations(sf);
    cache.set(sf, d);
  }
  return d;
}

/**
 * Collects the definitions of a parsed file: functions (nested ones included), classes and
 * their methods, constructors, accessors and function-valued fields, interfaces and their
 * method members, type aliases (and the methods of an object type they name), enums,
 * namespaces and ambient modules, function-valued variables anywhere, exported variables,
 * object-literal methods of a named object (`const api = { get() {} }` → `api.get`), the
 * functions of anonymous object literals (`sub({ next: (v) => … })`), functions assigned
 * anywhere (`inst.keyof = () => …`, `this.onClose = …`), module-level consts made by a call
 * that wraps a function (`export const map = dual(2, (self, f) => …)`), and the CommonJS forms
 * `exports.f = function`, `module.exports = { … }`, `A.prototype.m = function`.
 *
 * Signatures are the qualified names, made unique in source order:
 * - an overload group (consecutive declarations of one function, method or constructor)
 *   gives the bare name to its implementation (or, without one, to its first signature);
 *   the other signatures get `@overload1`, `@overload2`, … in source order;
 * - a setter gets `@set` (its getter keeps the bare name);
 * - any other repeat gets `@2`, `@3`, … (e.g. `interface X` merged with `namespace X`).
 *
 * Two steps: one walk finds the definitions (`declarations/walk.ts`, one definer per kind of
 * syntax in `declarations/define-*.ts`), then {@link assignSignatures} names them.
 */
export function collectDeclarations(sf: ts.SourceFile): FileDeclarations {
  const walk = new DeclarationWalk(sf);
  walk.walkFile();
  const { list, byScope, byDeclaration } = walk.declarations;
  assignSignatures(list);
  return { list, byScope, byDeclaration };
}
