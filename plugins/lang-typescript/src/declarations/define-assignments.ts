import ts from 'typescript';
import type { Declaration } from '../declarations.js';
import { bodyStart, isFunctionExpressionLike, membersStart, unwrapExpression } from './declaration-syntax.js';
import type { DeclarationWalk } from './walk.js';

/** The definitions whose `this` is an instance of a class: `this.name = …` in them defines a member of that class. */
const INSTANCE_SCOPES = new Set(['constructor', 'method', 'property', 'field']);

/**
 * A function (or class) defined by assignment anywhere in the code: `x.name = () => …`,
 * `x.y.name = function () {}`, `this.name = (v) => …`, `name = function () {}` (zod v4 defines
 * its methods this way: `inst.keyof = () => …` inside `$constructor("ZodObject", (inst, def) =>
 * { … })`). A property assignment is a `method` named by the property, an identifier a
 * `function`; both are qualified by the innermost definition around them, except that
 * `this.name = …` in a member of a class is a member of that class (`C.name`). The calls inside
 * belong to it. The top-level CommonJS forms (`exports.f = …`, `A.prototype.m = …`) are
 * {@link defineCommonJsAssignment}'s.
 */
export function defineAssignment(walk: DeclarationWalk, e: ts.BinaryExpression, scope: Declaration | undefined, parent: ts.Node): boolean {
  if (e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
  const right = unwrapExpression(e.right);
  const isClass = ts.isClassExpression(right);
  if (!isFunctionExpressionLike(right) && !isClass) return false;
  const left = unwrapExpression(e.left);
  let name: string;
  let qualifier: string | undefined;
  let onThis = false;
  if (ts.isIdentifier(left)) name = left.text;
  else if (ts.isPropertyAccessExpression(left) && (ts.isIdentifier(left.name) || ts.isPrivateIdentifier(left.name))) {
    name = left.name.text;
    onThis = left.expression.kind === ts.SyntaxKind.ThisKeyword;
  } else return false;
  if (onThis) qualifier = instanceOwner(scope)?.qualifiedName;
  // A statement that is only this assignment is the definition's extent (with its `;`).
  const rangeNode = ts.isExpressionStatement(parent) && parent.expression === e ? parent : e;
  const header = isClass ? membersStart(right, right.getStart(walk.sf)) : bodyStart(right, walk.sf);
  const kind = isClass ? 'class' : ts.isIdentifier(left) ? 'function' : 'method';
  const d = walk.declarations.add(kind, name, rangeNode, header, scope, [e, e.left, right], qualifier === undefined ? {} : { qualifier });
  walk.visitChildren(e, d);
  return true;
}

/** The class whose instance `this` is inside `scope`: the class of the member `scope` is (or is inside). */
function instanceOwner(scope: Declaration | undefined): Declaration | undefined {
  for (let s = scope; s; s = s.parent) {
    if (s.kind === 'class') return s;
    // `this` in a plain function is not the class's instance.
    if (!INSTANCE_SCOPES.has(s.kind)) return undefined;
  }
  return undefined;
}
