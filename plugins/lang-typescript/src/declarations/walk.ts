import ts from 'typescript';
import type { Declaration } from '../declarations.js';
import { defineAssignment } from './define-assignments.js';
import { defineCommonJsAssignment } from './define-commonjs.js';
import {
  defineAccessor,
  defineConstructor,
  defineMethod,
  defineMethodSignature,
  definePropertyDeclaration,
  definePropertySignature,
} from './define-members.js';
import { defineClass, defineEnum, defineFunction, defineInterface, defineModule, defineTypeAlias } from './define-statements.js';
import { defineExportAssignment, definePropertyAssignment, defineShorthandProperty, defineVariableStatement } from './define-values.js';
import { DeclarationList } from './declaration-list.js';
import { isTypeSyntax } from './declaration-syntax.js';

/**
 * Adds the definition `node` is, if it is one, and walks inside it; false when it is none
 * (then the walk goes on into its children). `parent` is the node's syntactic parent, `scope`
 * the innermost definition around it.
 */
export type Definer = (walk: DeclarationWalk, node: ts.Node, scope: Declaration | undefined, parent: ts.Node) => boolean;

/** A {@link Definer} for the nodes `is` accepts. */
function definer<T extends ts.Node>(
  is: (node: ts.Node) => node is T,
  define: (walk: DeclarationWalk, node: T, scope: Declaration | undefined, parent: ts.Node) => boolean,
): Definer {
  return (walk, node, scope, parent) => is(node) && define(walk, node, scope, parent);
}

/** The kinds of node that may be a definition (most nodes are none: one lookup skips them), each with its definer. */
const DEFINERS = new Map<ts.SyntaxKind, Definer>([
  // Declaration statements.
  [ts.SyntaxKind.FunctionDeclaration, definer(ts.isFunctionDeclaration, defineFunction)],
  [ts.SyntaxKind.ClassDeclaration, definer(ts.isClassDeclaration, defineClass)],
  [ts.SyntaxKind.InterfaceDeclaration, definer(ts.isInterfaceDeclaration, defineInterface)],
  [ts.SyntaxKind.TypeAliasDeclaration, definer(ts.isTypeAliasDeclaration, defineTypeAlias)],
  [ts.SyntaxKind.EnumDeclaration, definer(ts.isEnumDeclaration, defineEnum)],
  [ts.SyntaxKind.ModuleDeclaration, definer(ts.isModuleDeclaration, defineModule)],
  // Members of classes, interfaces and named object types.
  [ts.SyntaxKind.Constructor, definer(ts.isConstructorDeclaration, defineConstructor)],
  [ts.SyntaxKind.MethodDeclaration, definer(ts.isMethodDeclaration, defineMethod)],
  [ts.SyntaxKind.GetAccessor, definer(ts.isGetAccessorDeclaration, defineAccessor)],
  [ts.SyntaxKind.SetAccessor, definer(ts.isSetAccessorDeclaration, defineAccessor)],
  [ts.SyntaxKind.PropertyDeclaration, definer(ts.isPropertyDeclaration, definePropertyDeclaration)],
  [ts.SyntaxKind.MethodSignature, definer(ts.isMethodSignature, defineMethodSignature)],
  [ts.SyntaxKind.PropertySignature, definer(ts.isPropertySignature, definePropertySignature)],
  // Values: variables, members of named object literals, default exports.
  [ts.SyntaxKind.VariableStatement, definer(ts.isVariableStatement, defineVariableStatement)],
  [ts.SyntaxKind.PropertyAssignment, definer(ts.isPropertyAssignment, definePropertyAssignment)],
  [ts.SyntaxKind.ShorthandPropertyAssignment, definer(ts.isShorthandPropertyAssignment, defineShorthandProperty)],
  [ts.SyntaxKind.ExportAssignment, definer(ts.isExportAssignment, defineExportAssignment)],
  // CommonJS assignments (`exports.f = function`, …).
  [ts.SyntaxKind.ExpressionStatement, definer(ts.isExpressionStatement, defineCommonJsAssignment)],
  // Functions defined by assignment anywhere (`inst.keyof = () => …`, `this.handler = …`).
  [ts.SyntaxKind.BinaryExpression, definer(ts.isBinaryExpression, defineAssignment)],
]);

/**
 * One walk over a parsed file that finds its definitions. Parents are passed down rather than
 * read from `node.parent`: Phase A parses without parent pointers (setting them costs a tenth
 * of the parse).
 */
export class DeclarationWalk {
  readonly declarations = new DeclarationList();
  /** Object literals and object types whose members are definitions (`const api = { … }`, `type T = { … }`). */
  readonly namedLiterals = new Set<ts.Node>();
  /** Inside an ambient context (a `.d.ts` file, `declare namespace`): its variables count as exported. */
  ambient: boolean;

  constructor(readonly sf: ts.SourceFile) {
    this.ambient = sf.isDeclarationFile;
  }

  /** Walks every statement of the file. */
  walkFile(): void {
    for (const statement of this.sf.statements) this.visit(statement, undefined, this.sf);
  }

  /** Visits `node` (whose parent is `parent`) inside the definition `scope`. */
  visit(node: ts.Node, scope: Declaration | undefined, parent: ts.Node): void {
    const define = DEFINERS.get(node.kind);
    if (define?.(this, node, scope, parent)) return;
    // Type annotations hold no definitions (the object type of a type alias is handled
    // with the alias): skipping them saves most of the walk in type-heavy code.
    if (isTypeSyntax(node) && !this.namedLiterals.has(node)) return;
    this.visitChildren(node, scope);
  }

  /** Visits the children of `node` inside the definition `scope`. */
  visitChildren(node: ts.Node, scope: Declaration | undefined): void {
    ts.forEachChild(node, (c) => this.visit(c, scope, node));
  }
}
