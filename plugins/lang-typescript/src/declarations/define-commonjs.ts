import type { NodeKind } from '@travsr/sdk';
import ts from 'typescript';
import type { Declaration } from '../declarations.js';
import { bodyStart, definesFunctions, entityPath, isFunctionExpressionLike, membersStart, unwrapExpression } from './declaration-syntax.js';
import type { DeclarationWalk } from './walk.js';

/**
 * A top-level CommonJS assignment that defines: `exports.f = function`, `module.exports.f = …`,
 * `module.exports = { … }` (its members become top-level definitions), `A.prototype.m =
 * function` (`A.m`, a method), `A.f = function` (`A.f`). Only at the top level of a file.
 */
export function defineCommonJsAssignment(walk: DeclarationWalk, s: ts.ExpressionStatement, scope: Declaration | undefined): boolean {
  if (scope !== undefined) return false;
  const e = s.expression;
  if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
  const right = unwrapExpression(e.right);
  const path = entityPath(e.left);
  if (!path || path.length < 2) return false;
  const isModuleExports = path.length === 2 && path[0] === 'module' && path[1] === 'exports';
  if (isModuleExports && ts.isObjectLiteralExpression(right) && definesFunctions(right)) {
    walk.namedLiterals.add(right);
    // Members are top-level names of the module: no container node.
    ts.forEachChild(right, (c) => walk.visit(c, undefined, right));
    return true;
  }
  if (!isFunctionExpressionLike(right) && !ts.isClassExpression(right)) return false;
  let qualifier: string | undefined;
  let kind: NodeKind = ts.isClassExpression(right) ? 'class' : 'function';
  if (path[0] === 'exports' && path.length === 2) qualifier = undefined;
  else if (path[0] === 'module' && path[1] === 'exports' && path.length === 3) qualifier = undefined;
  else if (path.length === 3 && path[1] === 'prototype') {
    qualifier = path[0];
    if (kind === 'function') kind = 'method';
  } else if (path.length === 2 && path[0] !== 'module') qualifier = path[0];
  else return false;
  const name = path[path.length - 1]!;
  const header = ts.isClassExpression(right) ? membersStart(right, right.getStart(walk.sf)) : bodyStart(right, walk.sf);
  const d = walk.declarations.add(kind, name, s, header, undefined, [e, e.left, right], qualifier === undefined ? {} : { qualifier });
  // Into the assignment, not the statement again (defineAssignment would take it for another definition).
  walk.visitChildren(e, d);
  return true;
}
