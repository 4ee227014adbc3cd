import type { NodeKind } from '@travsr/sdk';
import ts from 'typescript';
import type { Declaration } from '../declarations.js';
import {
  bodyStart,
  definesFunctions,
  hasModifier,
  isFunctionExpressionLike,
  membersStart,
  propertyNameText,
  unwrapExpression,
} from './declaration-syntax.js';
import type { DeclarationWalk } from './walk.js';

// Values that are definitions: variables, the members of named object literals, default exports.

/** `const`/`let`/`var`: each declarator that is a definition ({@link defineVariable}); the others are walked as code. */
export function defineVariableStatement(
  walk: DeclarationWalk,
  n: ts.VariableStatement,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  const decls = n.declarationList.declarations;
  const exported = hasModifier(n, ts.SyntaxKind.ExportKeyword) || (walk.ambient && ts.isModuleBlock(parent));
  const constant = (n.declarationList.flags & ts.NodeFlags.Const) !== 0;
  const atModule = scope === undefined || scope.kind === 'namespace' || scope.kind === 'module';
  for (const v of decls) {
    // A lone declarator's extent is the whole statement (`export const f = () => …`).
    const rangeNode = decls.length === 1 ? n : v;
    if (!defineVariable(walk, v, rangeNode, scope, { exported: exported && atModule, constant, atModule }))
      walk.visit(v, scope, n.declarationList);
  }
  // Modifiers and decorators hold no definitions.
  return true;
}

/** Where a variable is declared, as {@link defineVariable} needs it. */
export interface VariablePlace {
  /** Exported from a module or namespace (or declared in an ambient one). */
  exported: boolean;
  /** Declared with `const`. */
  constant: boolean;
  /** At the top level of a module or namespace, not inside a function or class. */
  atModule: boolean;
}

/**
 * A variable declarator that is a definition: a function or class value anywhere; a
 * module-level const made by a call that wraps a function (a function); a module-level object literal that is exported or defines functions (its members become
 * definitions); any other module-level variable. False when it is none (a local value).
 */
export function defineVariable(
  walk: DeclarationWalk,
  v: ts.VariableDeclaration,
  rangeNode: ts.Node,
  scope: Declaration | undefined,
  place: VariablePlace,
): boolean {
  if (!ts.isIdentifier(v.name)) return false;
  const { exported, constant, atModule } = place;
  const name = v.name.text;
  const init = v.initializer ? unwrapExpression(v.initializer) : undefined;
  if (init && isFunctionExpressionLike(init)) {
    const d = walk.declarations.add('function', name, rangeNode, bodyStart(init, walk.sf), scope, [v, init]);
    walk.visitChildren(v, d);
    return true;
  }
  if (init && ts.isClassExpression(init)) {
    const d = walk.declarations.add('class', name, rangeNode, membersStart(init, init.getStart(walk.sf)), scope, [v, init]);
    walk.visitChildren(v, d);
    return true;
  }
  // `export const map = dual(2, (self, f) => …)`: a module-level const made by a call that wraps a
  // function is that function (the effect style); its calls are the wrapped function's.
  const wrapped = init && constant && atModule ? wrappedFunction(init) : undefined;
  if (wrapped) {
    const d = walk.declarations.add('function', name, rangeNode, bodyStart(wrapped, walk.sf), scope, [v]);
    walk.visitChildren(v, d);
    return true;
  }
  const kind: NodeKind = constant ? 'constant' : 'variable';
  if (init && ts.isObjectLiteralExpression(init) && atModule && (exported || definesFunctions(init))) {
    walk.namedLiterals.add(init);
    const d = walk.declarations.add(kind, name, rangeNode, init.getStart(walk.sf) + 1, scope, [v, init]);
    walk.visitChildren(v, d);
    return true;
  }
  if (exported || atModule) {
    const d = walk.declarations.add(kind, name, rangeNode, rangeNode.end, scope, [v]);
    walk.visitChildren(v, d);
    return true;
  }
  return false;
}

/**
 * The function a call wraps, when its last argument is one (`dual(2, (self, f) => …)`,
 * `Effect.fn(function* () {…})`, `memo(() => …)`): what a module-level const made by the call is.
 */
function wrappedFunction(init: ts.Expression): ts.ArrowFunction | ts.FunctionExpression | undefined {
  if (!ts.isCallExpression(init)) return undefined;
  const last = init.arguments[init.arguments.length - 1];
  const fn = last ? unwrapExpression(last) : undefined;
  return fn && isFunctionExpressionLike(fn) ? fn : undefined;
}

/**
 * `name: value` in an object literal. In a named one: a `method` for a function, a named
 * `property` for a nested object, a `property` otherwise. In an anonymous one (`subscribe({
 * next: (v) => … })`), a function only: a `method` qualified by the definition around it.
 */
export function definePropertyAssignment(
  walk: DeclarationWalk,
  n: ts.PropertyAssignment,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  const named = walk.namedLiterals.has(parent);
  const init = unwrapExpression(n.initializer);
  if (!named && !isFunctionExpressionLike(init)) return false;
  const name = propertyNameText(n.name, walk.sf);
  if (name === undefined) return false;
  if (isFunctionExpressionLike(init)) {
    const d = walk.declarations.add('method', name, n, bodyStart(init, walk.sf), scope, [n, init]);
    walk.visitChildren(n, d);
    return true;
  }
  if (ts.isObjectLiteralExpression(init)) {
    walk.namedLiterals.add(init);
    const d = walk.declarations.add('property', name, n, init.getStart(walk.sf) + 1, scope, [n, init]);
    walk.visitChildren(n, d);
    return true;
  }
  // Any other value of a named object is a property of it (`late = { object: … }`).
  const d = walk.declarations.add('property', name, n, n.end, scope, [n]);
  walk.visitChildren(n, d);
  return true;
}

/** `{ name }` in a named object literal: a `property`. */
export function defineShorthandProperty(
  walk: DeclarationWalk,
  n: ts.ShorthandPropertyAssignment,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  if (!walk.namedLiterals.has(parent)) return false;
  walk.declarations.add('property', n.name.text, n, n.end, scope, [n]);
  return true;
}

/** `export default` a function, a class or an object literal that defines functions (named `default`, a class by its own name). */
export function defineExportAssignment(walk: DeclarationWalk, n: ts.ExportAssignment, scope: Declaration | undefined): boolean {
  const init = unwrapExpression(n.expression);
  if (isFunctionExpressionLike(init)) {
    const d = walk.declarations.add('function', 'default', n, bodyStart(init, walk.sf), scope, [n, init]);
    walk.visitChildren(n, d);
    return true;
  }
  if (ts.isClassExpression(init)) {
    const d = walk.declarations.add('class', init.name?.text ?? 'default', n, membersStart(init, init.getStart(walk.sf)), scope, [n, init]);
    walk.visitChildren(n, d);
    return true;
  }
  if (ts.isObjectLiteralExpression(init) && definesFunctions(init)) {
    walk.namedLiterals.add(init);
    const d = walk.declarations.add('constant', 'default', n, init.getStart(walk.sf) + 1, scope, [n, init]);
    walk.visitChildren(n, d);
    return true;
  }
  return false;
}
