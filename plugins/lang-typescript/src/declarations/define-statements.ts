import type { NodeKind } from '@travsr/sdk';
import ts from 'typescript';
import type { Declaration } from '../declarations.js';
import { bodyStart, hasModifier, membersStart } from './declaration-syntax.js';
import type { DeclarationWalk } from './walk.js';

// Declaration statements: each is a definition when it has a name (`export default` gives one).

/** `function f`, `export default function` (overloads grouped). */
export function defineFunction(walk: DeclarationWalk, n: ts.FunctionDeclaration, scope: Declaration | undefined): boolean {
  const name = n.name?.text ?? (hasModifier(n, ts.SyntaxKind.DefaultKeyword) ? 'default' : undefined);
  if (name === undefined) return false;
  const d = walk.declarations.add('function', name, n, bodyStart(n, walk.sf), scope, [n], {
    overloadKind: 'function',
    hasBody: n.body !== undefined,
  });
  walk.visitChildren(n, d);
  return true;
}

/** `class C`, `export default class`. */
export function defineClass(walk: DeclarationWalk, n: ts.ClassDeclaration, scope: Declaration | undefined): boolean {
  const name = n.name?.text ?? (hasModifier(n, ts.SyntaxKind.DefaultKeyword) ? 'default' : undefined);
  if (name === undefined) return false;
  const d = walk.declarations.add('class', name, n, membersStart(n, n.getStart(walk.sf)), scope, [n]);
  walk.visitChildren(n, d);
  return true;
}

/** `interface I`. */
export function defineInterface(walk: DeclarationWalk, n: ts.InterfaceDeclaration, scope: Declaration | undefined): boolean {
  const d = walk.declarations.add('interface', n.name.text, n, membersStart(n, n.getStart(walk.sf)), scope, [n]);
  walk.visitChildren(n, d);
  return true;
}

/** `type T = …`; the members of an object type it names (parentheses allowed) are definitions too. */
export function defineTypeAlias(walk: DeclarationWalk, n: ts.TypeAliasDeclaration, scope: Declaration | undefined): boolean {
  const d = walk.declarations.add('type', n.name.text, n, n.end, scope, [n]);
  let t: ts.TypeNode = n.type;
  const parens: ts.TypeNode[] = [];
  while (ts.isParenthesizedTypeNode(t)) {
    parens.push(t);
    t = t.type;
  }
  if (ts.isTypeLiteralNode(t)) for (const x of [...parens, t]) walk.namedLiterals.add(x);
  walk.visitChildren(n, d);
  return true;
}

/** `enum E`. */
export function defineEnum(walk: DeclarationWalk, n: ts.EnumDeclaration, scope: Declaration | undefined): boolean {
  const d = walk.declarations.add('enum', n.name.text, n, membersStart(n, n.getStart(walk.sf)), scope, [n]);
  walk.visitChildren(n, d);
  return true;
}

/** `namespace A.B` (each part nests), `declare module "x"` (named with its quotes), `declare global`; `declare` makes the inside ambient. */
export function defineModule(walk: DeclarationWalk, n: ts.ModuleDeclaration, scope: Declaration | undefined): boolean {
  const isGlobal = ts.isIdentifier(n.name) && n.name.text === 'global' && (n.flags & ts.NodeFlags.GlobalAugmentation) !== 0;
  const name = ts.isStringLiteral(n.name) ? JSON.stringify(n.name.text) : isGlobal ? 'global' : n.name.text;
  const kind: NodeKind = ts.isStringLiteral(n.name) ? 'module' : 'namespace';
  const d = walk.declarations.add(kind, name, n, n.body ? n.body.getStart(walk.sf) : n.end, scope, [n]);
  const outer = walk.ambient;
  walk.ambient ||= hasModifier(n, ts.SyntaxKind.DeclareKeyword);
  walk.visitChildren(n, d);
  walk.ambient = outer;
  return true;
}
