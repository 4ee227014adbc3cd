import type { NodeKind } from '@travsr/sdk';
import ts from 'typescript';

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

const MAX_NAME = 200;

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

type Overloadable = 'function' | 'method' | 'constructor';

interface Pending extends Declaration {
  overloadKind: Overloadable | undefined;
  hasBody: boolean;
  group: Pending[] | undefined;
  /** The wanted signature before uniqueness (setters get `@set`). */
  suffix: string;
}

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

function isFunctionExpressionLike(e: ts.Node): e is ts.ArrowFunction | ts.FunctionExpression {
  return ts.isArrowFunction(e) || ts.isFunctionExpression(e);
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
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
function definesFunctions(o: ts.ObjectLiteralExpression, depth = 0): boolean {
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

function isFunctionTypeNode(t: ts.TypeNode | undefined): boolean {
  if (!t) return false;
  while (ts.isParenthesizedTypeNode(t)) t = t.type;
  return ts.isFunctionTypeNode(t) || ts.isConstructorTypeNode(t);
}

/**
 * Collects the definitions of a parsed file: functions (nested ones included), classes and
 * their methods, constructors, accessors and function-valued fields, interfaces and their
 * method members, type aliases (and the methods of an object type they name), enums,
 * namespaces and ambient modules, function-valued variables anywhere, exported variables,
 * object-literal methods of a named object (`const api = { get() {} }` → `api.get`), and
 * the CommonJS forms `exports.f = function`, `module.exports = { … }`, `A.prototype.m = function`.
 *
 * Signatures are the qualified names, made unique in source order:
 * - an overload group (consecutive declarations of one function, method or constructor)
 *   gives the bare name to its implementation (or, without one, to its first signature);
 *   the other signatures get `@overload1`, `@overload2`, … in source order;
 * - a setter gets `@set` (its getter keeps the bare name);
 * - any other repeat gets `@2`, `@3`, … (e.g. `interface X` merged with `namespace X`).
 */

/** The kinds of node `define` may turn into a definition (most nodes are none: one lookup skips them). */
const DEFINING_KINDS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.ModuleDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.VariableStatement,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ShorthandPropertyAssignment,
  ts.SyntaxKind.ExportAssignment,
  ts.SyntaxKind.ExpressionStatement,
]);

export function collectDeclarations(sf: ts.SourceFile): FileDeclarations {
  const text = sf.text;
  const list: Pending[] = [];
  const byScope = new Map<ts.Node, Declaration>();
  const byDeclaration = new Map<ts.Node, Declaration>();
  const namedLiterals = new Set<ts.Node>();
  let lastAdded: Pending | undefined;

  const add = (
    kind: NodeKind,
    name: string,
    rangeNode: ts.Node,
    headerEnd: number,
    parent: Declaration | undefined,
    keys: (ts.Node | undefined)[],
    opts: { overloadKind?: Overloadable; hasBody?: boolean; suffix?: string; qualifier?: string } = {},
  ): Pending => {
    const short = name.slice(0, MAX_NAME);
    const qualifier = opts.qualifier ?? parent?.qualifiedName;
    const d: Pending = {
      kind,
      name: short,
      qualifiedName: qualifier ? `${qualifier}.${short}` : short,
      signature: '',
      rangeNode,
      headerEnd,
      parent,
      primary: undefined as unknown as Declaration,
      overloadKind: opts.overloadKind,
      hasBody: opts.hasBody ?? true,
      group: undefined,
      suffix: opts.suffix ?? '',
    };
    d.primary = d;
    if (
      d.overloadKind &&
      lastAdded?.overloadKind === d.overloadKind &&
      lastAdded.parent === parent &&
      lastAdded.qualifiedName === d.qualifiedName &&
      !lastAdded.hasBody
    ) {
      d.group = lastAdded.group ?? [lastAdded];
      lastAdded.group = d.group;
      d.group.push(d);
    }
    list.push(d);
    byScope.set(rangeNode, d);
    for (const k of keys) if (k) byDeclaration.set(k, d);
    lastAdded = d;
    return d;
  };

  const bodyStart = (fn: ts.FunctionLikeDeclaration): number => {
    if (!fn.body) return fn.end;
    if (ts.isArrowFunction(fn) && !ts.isBlock(fn.body)) return fn.equalsGreaterThanToken.end;
    return fn.body.getStart(sf);
  };
  const membersStart = (n: { members: ts.NodeArray<ts.Node> }, fallback: number): number =>
    n.members.pos > 0 ? Math.max(fallback, n.members.pos - 1) : fallback;

  // Parents are passed down rather than read from `node.parent`: Phase A parses without
  // parent pointers (setting them costs a tenth of the parse).
  let ambient = sf.isDeclarationFile;
  const visitChildren = (node: ts.Node, scope: Declaration | undefined): void => {
    ts.forEachChild(node, (c) => visit(c, scope, node));
  };

  /** Adds the definition `node` is, if it is one, and walks inside it; false when it is none. */
  const define = (node: ts.Node, scope: Declaration | undefined, parent: ts.Node): boolean => {
    if (!DEFINING_KINDS.has(node.kind)) return false;
    if (ts.isFunctionDeclaration(node)) {
      const n = node;
      const name = n.name?.text ?? (hasModifier(n, ts.SyntaxKind.DefaultKeyword) ? 'default' : undefined);
      if (name === undefined) return false;
      const d = add('function', name, n, bodyStart(n), scope, [n], { overloadKind: 'function', hasBody: n.body !== undefined });
      visitChildren(n, d);
      return true;
    }
    if (ts.isClassDeclaration(node)) {
      const n = node;
      const name = n.name?.text ?? (hasModifier(n, ts.SyntaxKind.DefaultKeyword) ? 'default' : undefined);
      if (name === undefined) return false;
      const d = add('class', name, n, membersStart(n, n.getStart(sf)), scope, [n]);
      visitChildren(n, d);
      return true;
    }
    if (ts.isInterfaceDeclaration(node)) {
      const n = node;
      const d = add('interface', n.name.text, n, membersStart(n, n.getStart(sf)), scope, [n]);
      visitChildren(n, d);
      return true;
    }
    if (ts.isTypeAliasDeclaration(node)) {
      const n = node;
      const d = add('type', n.name.text, n, n.end, scope, [n]);
      let t: ts.TypeNode = n.type;
      const parens: ts.TypeNode[] = [];
      while (ts.isParenthesizedTypeNode(t)) {
        parens.push(t);
        t = t.type;
      }
      if (ts.isTypeLiteralNode(t)) for (const x of [...parens, t]) namedLiterals.add(x);
      visitChildren(n, d);
      return true;
    }
    if (ts.isEnumDeclaration(node)) {
      const n = node;
      const d = add('enum', n.name.text, n, membersStart(n, n.getStart(sf)), scope, [n]);
      visitChildren(n, d);
      return true;
    }
    if (ts.isModuleDeclaration(node)) {
      const n = node;
      const isGlobal = ts.isIdentifier(n.name) && n.name.text === 'global' && (n.flags & ts.NodeFlags.GlobalAugmentation) !== 0;
      const name = ts.isStringLiteral(n.name) ? JSON.stringify(n.name.text) : isGlobal ? 'global' : n.name.text;
      const kind: NodeKind = ts.isStringLiteral(n.name) ? 'module' : 'namespace';
      const d = add(kind, name, n, n.body ? n.body.getStart(sf) : n.end, scope, [n]);
      const outer = ambient;
      ambient ||= hasModifier(n, ts.SyntaxKind.DeclareKeyword);
      visitChildren(n, d);
      ambient = outer;
      return true;
    }
    if (ts.isConstructorDeclaration(node)) {
      const n = node;
      const d = add('constructor', 'constructor', n, bodyStart(n), scope, [n], {
        overloadKind: 'constructor',
        hasBody: n.body !== undefined,
      });
      visitChildren(n, d);
      return true;
    }
    if (ts.isMethodDeclaration(node)) {
      const n = node;
      const inLiteral = ts.isObjectLiteralExpression(parent);
      const name = propertyNameText(n.name, sf);
      if (name === undefined || (inLiteral && !namedLiterals.has(parent))) return false;
      const d = add('method', name, n, bodyStart(n), scope, [n], { overloadKind: 'method', hasBody: n.body !== undefined });
      visitChildren(n, d);
      return true;
    }
    if (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
      const n = node;
      const name = propertyNameText(n.name, sf);
      if (name === undefined || (ts.isObjectLiteralExpression(parent) && !namedLiterals.has(parent))) return false;
      if (ts.isTypeLiteralNode(parent) && !namedLiterals.has(parent)) return false;
      const setter = n.kind === ts.SyntaxKind.SetAccessor;
      const d = add('property', name, n, bodyStart(n), scope, [n], setter ? { suffix: '@set' } : {});
      visitChildren(n, d);
      return true;
    }
    if (ts.isPropertyDeclaration(node)) {
      const n = node;
      const name = propertyNameText(n.name, sf);
      const init = n.initializer ? unwrapExpression(n.initializer) : undefined;
      if (name !== undefined && init && isFunctionExpressionLike(init)) {
        const d = add('method', name, n, bodyStart(init), scope, [n, init]);
        visitChildren(n, d);
        return true;
      }
      if (name !== undefined && !init && isFunctionTypeNode(n.type)) {
        add('method', name, n, n.end, scope, [n], { hasBody: false });
        return true;
      }
      if (name !== undefined && (ts.isClassDeclaration(parent) || ts.isClassExpression(parent))) {
        const d = add('field', name, n, n.end, scope, [n], { hasBody: false });
        visitChildren(n, d);
        return true;
      }
      return false;
    }
    if (ts.isMethodSignature(node)) {
      const n = node;
      const name = propertyNameText(n.name, sf);
      if (name === undefined || !(ts.isInterfaceDeclaration(parent) || namedLiterals.has(parent))) return false;
      add('method', name, n, n.end, scope, [n], { overloadKind: 'method', hasBody: false });
      visitChildren(n, scope);
      return true;
    }
    if (ts.isPropertySignature(node)) {
      const n = node;
      const name = propertyNameText(n.name, sf);
      if (name === undefined || !(ts.isInterfaceDeclaration(parent) || namedLiterals.has(parent))) return false;
      add(isFunctionTypeNode(n.type) ? 'method' : 'property', name, n, n.end, scope, [n], { hasBody: false });
      visitChildren(n, scope);
      return true;
    }
    if (ts.isVariableStatement(node)) {
      const n = node;
      const decls = n.declarationList.declarations;
      const exported = hasModifier(n, ts.SyntaxKind.ExportKeyword) || (ambient && ts.isModuleBlock(parent));
      const constant = (n.declarationList.flags & ts.NodeFlags.Const) !== 0;
      const atModule = scope === undefined || scope.kind === 'namespace' || scope.kind === 'module';
      for (const v of decls) {
        const rangeNode = decls.length === 1 ? n : v;
        if (!variable(v, rangeNode, scope, exported && atModule, constant, atModule)) visit(v, scope, n.declarationList);
      }
      // Modifiers and decorators hold no definitions.
      return true;
    }
    if (ts.isPropertyAssignment(node)) {
      const n = node;
      if (!namedLiterals.has(parent)) return false;
      const name = propertyNameText(n.name, sf);
      if (name === undefined) return false;
      const init = unwrapExpression(n.initializer);
      if (isFunctionExpressionLike(init)) {
        const d = add('method', name, n, bodyStart(init), scope, [n, init]);
        visitChildren(n, d);
        return true;
      }
      if (ts.isObjectLiteralExpression(init)) {
        namedLiterals.add(init);
        const d = add('property', name, n, init.getStart(sf) + 1, scope, [n, init]);
        visitChildren(n, d);
        return true;
      }
      // Any other value of a named object is a property of it (`late = { object: … }`).
      const d = add('property', name, n, n.end, scope, [n]);
      visitChildren(n, d);
      return true;
    }
    if (ts.isShorthandPropertyAssignment(node)) {
      const n = node;
      if (!namedLiterals.has(parent)) return false;
      add('property', n.name.text, n, n.end, scope, [n]);
      return true;
    }
    if (ts.isExportAssignment(node)) {
      const n = node;
      const init = unwrapExpression(n.expression);
      if (isFunctionExpressionLike(init)) {
        const d = add('function', 'default', n, bodyStart(init), scope, [n, init]);
        visitChildren(n, d);
        return true;
      }
      if (ts.isClassExpression(init)) {
        const d = add('class', init.name?.text ?? 'default', n, membersStart(init, init.getStart(sf)), scope, [n, init]);
        visitChildren(n, d);
        return true;
      }
      if (ts.isObjectLiteralExpression(init) && definesFunctions(init)) {
        namedLiterals.add(init);
        const d = add('constant', 'default', n, init.getStart(sf) + 1, scope, [n, init]);
        visitChildren(n, d);
        return true;
      }
      return false;
    }
    if (ts.isExpressionStatement(node)) return scope === undefined && commonJsAssignment(node);
    return false;
  };

  /** Visits `node` (whose parent is `parent`) inside the definition `scope`. */
  const visit = (node: ts.Node, scope: Declaration | undefined, parent: ts.Node): void => {
    if (define(node, scope, parent)) return;
    // Type annotations hold no definitions (the object type of a type alias is handled
    // with the alias): skipping them saves most of the walk in type-heavy code.
    if (isTypeSyntax(node) && !namedLiterals.has(node)) return;
    visitChildren(node, scope);
  };

  /** A variable declaration that is a definition; false when it is not one (then it is walked as code). */
  const variable = (
    v: ts.VariableDeclaration,
    rangeNode: ts.Node,
    scope: Declaration | undefined,
    exported: boolean,
    constant: boolean,
    atModule: boolean,
  ): boolean => {
    if (!ts.isIdentifier(v.name)) return false;
    const name = v.name.text;
    const init = v.initializer ? unwrapExpression(v.initializer) : undefined;
    if (init && isFunctionExpressionLike(init)) {
      const d = add('function', name, rangeNode, bodyStart(init), scope, [v, init]);
      visitChildren(v, d);
      return true;
    }
    if (init && ts.isClassExpression(init)) {
      const d = add('class', name, rangeNode, membersStart(init, init.getStart(sf)), scope, [v, init]);
      visitChildren(v, d);
      return true;
    }
    const kind: NodeKind = constant ? 'constant' : 'variable';
    if (init && ts.isObjectLiteralExpression(init) && atModule && (exported || definesFunctions(init))) {
      namedLiterals.add(init);
      const d = add(kind, name, rangeNode, init.getStart(sf) + 1, scope, [v, init]);
      visitChildren(v, d);
      return true;
    }
    if (exported || atModule) {
      const d = add(kind, name, rangeNode, rangeNode.end, scope, [v]);
      visitChildren(v, d);
      return true;
    }
    return false;
  };

  /** `exports.f = function`, `module.exports.f = …`, `module.exports = { … }`, `A.prototype.m = function`, `A.f = function`. */
  const commonJsAssignment = (s: ts.ExpressionStatement): boolean => {
    const e = s.expression;
    if (!ts.isBinaryExpression(e) || e.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
    const right = unwrapExpression(e.right);
    const path = entityPath(e.left);
    if (!path || path.length < 2) return false;
    const isModuleExports = path.length === 2 && path[0] === 'module' && path[1] === 'exports';
    if (isModuleExports && ts.isObjectLiteralExpression(right) && definesFunctions(right)) {
      namedLiterals.add(right);
      // Members are top-level names of the module: no container node.
      ts.forEachChild(right, (c) => visit(c, undefined, right));
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
    const header = ts.isClassExpression(right) ? membersStart(right, right.getStart(sf)) : bodyStart(right);
    const d = add(kind, name, s, header, undefined, [e, e.left, right], qualifier === undefined ? {} : { qualifier });
    visitChildren(s, d);
    return true;
  };

  for (const statement of sf.statements) visit(statement, undefined, sf);
  void text;
  return finish(list, byScope, byDeclaration);
}

/** Names of a plain property-access chain (`module.exports.f` → `['module', 'exports', 'f']`). */
function entityPath(e: ts.Expression): string[] | undefined {
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

function finish(list: Pending[], byScope: Map<ts.Node, Declaration>, byDeclaration: Map<ts.Node, Declaration>): FileDeclarations {
  // Wanted signatures: overload groups first (the primary is bare, the others numbered).
  const wanted = new Map<Pending, string>();
  for (const d of list) {
    if (wanted.has(d)) continue;
    if (!d.group) {
      wanted.set(d, d.qualifiedName + d.suffix);
      continue;
    }
    const primary = d.group.find((m) => m.hasBody) ?? d.group[0]!;
    let i = 0;
    primary.overloads = d.group.filter((m) => m !== primary);
    for (const m of d.group) {
      m.primary = primary;
      wanted.set(m, m === primary ? m.qualifiedName : `${m.qualifiedName}@overload${++i}`);
    }
  }
  // Unique in source order; '' is the file node's.
  const taken = new Set<string>(['']);
  for (const d of list) {
    const w = wanted.get(d)!;
    let s = w;
    for (let n = 2; taken.has(s); n++) s = `${w}@${n}`;
    taken.add(s);
    d.signature = s;
  }
  return { list, byScope, byDeclaration };
}
