import ts from 'typescript';
import type { Declaration } from '../declarations.js';
import { bodyStart, isFunctionExpressionLike, isFunctionTypeNode, propertyNameText, unwrapExpression } from './declaration-syntax.js';
import type { DeclarationWalk } from './walk.js';

// Members of classes and interfaces, and of the object literals and object types that are
// named (`walk.namedLiterals`). Of an anonymous object literal, only the functions are
// definitions (methods, accessors, `next: (v) => …`): the calls inside them are theirs.

/** `constructor` (overloads grouped). */
export function defineConstructor(walk: DeclarationWalk, n: ts.ConstructorDeclaration, scope: Declaration | undefined): boolean {
  const d = walk.declarations.add('constructor', 'constructor', n, bodyStart(n, walk.sf), scope, [n], {
    overloadKind: 'constructor',
    hasBody: n.body !== undefined,
  });
  walk.visitChildren(n, d);
  return true;
}

/** A method of a class or of an object literal, named or not (overloads grouped). */
export function defineMethod(walk: DeclarationWalk, n: ts.MethodDeclaration, scope: Declaration | undefined): boolean {
  const name = propertyNameText(n.name, walk.sf);
  if (name === undefined) return false;
  const d = walk.declarations.add('method', name, n, bodyStart(n, walk.sf), scope, [n], {
    overloadKind: 'method',
    hasBody: n.body !== undefined,
  });
  walk.visitChildren(n, d);
  return true;
}

/** A getter or setter (of a class or any object literal): a `property`; the setter's signature gets `@set`. */
export function defineAccessor(
  walk: DeclarationWalk,
  n: ts.GetAccessorDeclaration | ts.SetAccessorDeclaration,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  const name = propertyNameText(n.name, walk.sf);
  if (name === undefined || (ts.isTypeLiteralNode(parent) && !walk.namedLiterals.has(parent))) return false;
  const setter = n.kind === ts.SyntaxKind.SetAccessor;
  const d = walk.declarations.add('property', name, n, bodyStart(n, walk.sf), scope, [n], setter ? { suffix: '@set' } : {});
  walk.visitChildren(n, d);
  return true;
}

/** A class property: a `method` when its value or type is a function, a `field` otherwise. */
export function definePropertyDeclaration(
  walk: DeclarationWalk,
  n: ts.PropertyDeclaration,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  const name = propertyNameText(n.name, walk.sf);
  const init = n.initializer ? unwrapExpression(n.initializer) : undefined;
  if (name !== undefined && init && isFunctionExpressionLike(init)) {
    const d = walk.declarations.add('method', name, n, bodyStart(init, walk.sf), scope, [n, init]);
    walk.visitChildren(n, d);
    return true;
  }
  if (name !== undefined && !init && isFunctionTypeNode(n.type)) {
    walk.declarations.add('method', name, n, n.end, scope, [n], { hasBody: false });
    return true;
  }
  if (name !== undefined && (ts.isClassDeclaration(parent) || ts.isClassExpression(parent))) {
    const d = walk.declarations.add('field', name, n, n.end, scope, [n], { hasBody: false });
    walk.visitChildren(n, d);
    return true;
  }
  return false;
}

/** A method of an interface or a named object type (overloads grouped). */
export function defineMethodSignature(
  walk: DeclarationWalk,
  n: ts.MethodSignature,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  const name = propertyNameText(n.name, walk.sf);
  if (name === undefined || !(ts.isInterfaceDeclaration(parent) || walk.namedLiterals.has(parent))) return false;
  walk.declarations.add('method', name, n, n.end, scope, [n], { overloadKind: 'method', hasBody: false });
  walk.visitChildren(n, scope);
  return true;
}

/** A property of an interface or a named object type: a `method` when its type is a function. */
export function definePropertySignature(
  walk: DeclarationWalk,
  n: ts.PropertySignature,
  scope: Declaration | undefined,
  parent: ts.Node,
): boolean {
  const name = propertyNameText(n.name, walk.sf);
  if (name === undefined || !(ts.isInterfaceDeclaration(parent) || walk.namedLiterals.has(parent))) return false;
  walk.declarations.add(isFunctionTypeNode(n.type) ? 'method' : 'property', name, n, n.end, scope, [n], { hasBody: false });
  walk.visitChildren(n, scope);
  return true;
}
