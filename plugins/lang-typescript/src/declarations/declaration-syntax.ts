import ts from 'typescript';

/** Names are cut to this many characters (a computed name can hold any expression). */
export const MAX_NAME = 200;

/** A type node (`string`, `A<B>`, `{ a: T }`, `(x: T) => U`, …): syntax that holds no definition or call. */
export function isTypeSyntax(node: ts.Node): boolean {
  return node.kind >= ts.SyntaxKind.FirstTypeNode && node.kind <= ts.SyntaxKind.LastTypeNode;
}

/** Strips what does not change which value an initializer is: parentheses, `as`, `satisfies`, `!`. */
export function unwrapExpression(e: ts.Expression): ts.Expression {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e))
      e = e.expression;
    else if (ts.isTypeAssertionExpression(e)) e = e.expression;
    else return e;
  }
}

/** An arrow function or a function expression: a value that is a function definition. */
export function isFunctionExpressionLike(e: ts.Node): e is ts.ArrowFunction | ts.FunctionExpression {
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

/** True when `node` carries the modifier `kind` (`export`, `default`, `declare`, …). */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return mods?.some((m) => m.kind === kind) ?? false;
}

/** The text of a member or declaration name; computed names keep their brackets (`[Symbol.iterator]`). */
export function propertyNameText(name: ts.Node | undefined, sf: ts.SourceFile): string | undefined {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name)) return name.text;
  if (ts.isComputedPropertyName(name)) {
    const inner = name.expression;
    if (ts.isStringLiteral(inner) || ts.isNumericLiteral(inner)) return inner.text;
    return `[${sf.text.slice(inner.getStart(sf), inner.end).replace(/\s+/g, ' ').slice(0, MAX_NAME)}]`;
  }
  return undefined;
}

/** An object literal that defines functions (so its members are worth naming). */
export function definesFunctions(o: ts.ObjectLiteralExpression, depth = 0): boolean {
  for (const p of o.properties) {
    if (ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p)) return true;
    if (ts.isPropertyAssignment(p)) {
      const init = unwrapExpression(p.initializer);
      if (isFunctionExpressionLike(init)) return true;
      if (depth < 3 && ts.isObjectLiteralExpression(init) && definesFunctions(init, depth + 1)) return true;
    }
  }
  return false;
}

/** A function or constructor type (`(x: T) => U`, `new () => T`), parentheses allowed. */
export function isFunctionTypeNode(t: ts.TypeNode | undefined): boolean {
  if (!t) return false;
  while (ts.isParenthesizedTypeNode(t)) t = t.type;
  return ts.isFunctionTypeNode(t) || ts.isConstructorTypeNode(t);
}

/** Names of a plain property-access chain (`module.exports.f` → `['module', 'exports', 'f']`). */
export function entityPath(e: ts.Expression): string[] | undefined {
  const out: string[] = [];
  let cur: ts.Expression = e;
  while (ts.isPropertyAccessExpression(cur)) {
    if (!ts.isIdentifier(cur.name)) return undefined;
    out.unshift(cur.name.text);
    cur = cur.expression;
  }
  if (!ts.isIdentifier(cur)) return undefined;
  out.unshift(cur.text);
  return out;
}

/** Where a function's header ends: its body's `{`, an arrow's `=>` before an expression body, or its end without a body. */
export function bodyStart(fn: ts.FunctionLikeDeclaration, sf: ts.SourceFile): number {
  if (!fn.body) return fn.end;
  if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return fn.equalsGreaterThanToken.end;
  return fn.body.getStart(sf);
}

/** Where a class, interface or enum header ends: its `{` (`fallback` when it has no members list). */
export function membersStart(n: { members: ts.NodeArray<ts.Node> }, fallback: number): number {
  return n.members.pos > 0 ? Math.max(fallback, n.members.pos - 1) : fallback;
}
