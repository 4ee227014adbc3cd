import { relative } from 'node:path';
import type { Diagnostic, EdgeKind, VName } from '@travsr/sdk';
import type { FileGraphBuilder } from '@travsr/sdk';
import ts from 'typescript';
import { declarationsOf, unwrapExpression, type Declaration } from '../declarations.js';
import { languageOf } from '../languages.js';
import { calleeNameNode, moduleSpecifierOf, parseDiagnostics, walkWithScopes } from '../syntax.js';

/** Counts of one file's resolution, for the coverage diagnostic. */
export interface ResolutionCounts {
  calls: number;
  resolved: number;
  /** Resolved to a declaration outside the repository (node_modules, lib.d.ts): no edge, by design. */
  external: number;
  /** No declaration that is a definition (a parameter, a local value, an untyped expression). */
  unresolved: number;
}

type Purpose = 'call' | 'new' | 'type' | 'heritage';

const VALUE_KINDS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.MethodSignature,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.PropertyDeclaration,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.BinaryExpression,
  ts.SyntaxKind.PropertyAccessExpression,
  ts.SyntaxKind.ExportAssignment,
]);

const TYPE_KINDS = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.ClassExpression,
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.VariableDeclaration, // `const A = class {}` used as a type
  ts.SyntaxKind.BinaryExpression,
]);

/**
 * Resolves the edges of one file of a program with its type checker: calls (caller
 * definition → callee declaration), type references, heritage and imports, each with
 * provenance `phase-b` and confidence 1. Targets outside the repository are not emitted.
 */
export class EdgeResolver {
  private readonly rootPrefix: string;
  private readonly checker: ts.TypeChecker;
  private readonly paths = new Map<string, string | undefined>();
  private calleeNames: Set<string> | undefined;
  /** What each declaration resolves to (edges share these VNames: they are never mutated). */
  private readonly targets = new Map<ts.Node, VName | 'external' | undefined>();

  constructor(
    private readonly program: ts.Program,
    private readonly root: string,
    private readonly corpus: string,
  ) {
    this.rootPrefix = root.endsWith('/') ? root : `${root}/`;
    this.checker = program.getTypeChecker();
  }

  /** The repository-relative path of a program file, or undefined when it is not the repository's own source. */
  repoPath(fileName: string): string | undefined {
    if (this.paths.has(fileName)) return this.paths.get(fileName);
    const path =
      !fileName.startsWith(this.rootPrefix) || fileName.includes('/node_modules/')
        ? undefined
        : relative(this.root, fileName).replace(/\\/g, '/');
    this.paths.set(fileName, path);
    return path;
  }

  /**
   * Every name a call can reach a definition of the repository by: the names of its
   * definitions and the local names of imports and exports (`import { a as b }`, `import b
   * from`). A call named otherwise (`push`, `then`, `toString`) cannot land on a definition
   * of the repository, so the checker is not asked about it.
   */
  private namesOfDefinitions(): Set<string> {
    if (this.calleeNames) return this.calleeNames;
    const names = new Set<string>(['default']);
    for (const sf of this.program.getSourceFiles()) {
      if (this.repoPath(sf.fileName) === undefined) continue;
      for (const d of declarationsOf(sf).list) names.add(d.name);
      for (const st of sf.statements) {
        if (ts.isImportDeclaration(st) && st.importClause) {
          const c = st.importClause;
          if (c.name) names.add(c.name.text);
          if (c.namedBindings && ts.isNamedImports(c.namedBindings)) for (const e of c.namedBindings.elements) names.add(e.name.text);
        } else if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
          for (const e of st.exportClause.elements) names.add(e.name.text);
        } else if (ts.isImportEqualsDeclaration(st)) {
          names.add(st.name.text);
        }
      }
    }
    this.calleeNames = names;
    return names;
  }

  private vnameOf(sf: ts.SourceFile, path: string, signature: string): VName {
    void sf;
    return { corpus: this.corpus, root: '', path, language: languageOf(path), signature };
  }

  analyze(sf: ts.SourceFile, graph: FileGraphBuilder): { counts: ResolutionCounts; diagnostics: Diagnostic[] } {
    const decls = declarationsOf(sf);
    const isJs = languageOf(sf.fileName) === 'javascript';
    const counts: ResolutionCounts = { calls: 0, resolved: 0, external: 0, unresolved: 0 };
    const seen = new Set<string>();
    const emit = (scope: Declaration | undefined, dst: VName, kind: EdgeKind): void => {
      const src = scope ? scope.signature : '';
      const key = `${src}\0${dst.path}\0${dst.signature}\0${kind}`;
      if (seen.has(key)) return;
      seen.add(key);
      graph.edge(graph.vname(src), dst, kind, { confidence: 1, provenance: 'phase-b' });
    };

    walkWithScopes(sf, decls, (node, scope) => {
      const spec = moduleSpecifierOf(node, isJs);
      if (spec) {
        const target = this.moduleTarget(spec);
        if (target) emit(undefined, target, 'imports');
        if (!ts.isCallExpression(node)) return;
      }
      if (
        ts.isCallExpression(node) ||
        ts.isNewExpression(node) ||
        ts.isTaggedTemplateExpression(node) ||
        ts.isDecorator(node) ||
        ts.isJsxOpeningElement(node) ||
        ts.isJsxSelfClosingElement(node)
      ) {
        if (spec) return; // import('x') / require('x') is an import, not a call
        const targets = this.callTargets(node);
        if (targets === undefined) return;
        counts.calls++;
        if (targets === 'external') counts.external++;
        else if (targets.length === 0) counts.unresolved++;
        else {
          counts.resolved++;
          for (const t of targets) emit(scope, t, 'calls');
        }
      } else if (ts.isTypeReferenceNode(node)) {
        const name = ts.isQualifiedName(node.typeName) ? node.typeName.right : node.typeName;
        const r = this.targetsOfName(name, 'type');
        if (r !== 'external') for (const t of r) if (t.signature !== scope?.signature || t.path !== graph.path) emit(scope, t, 'types');
      } else if (ts.isHeritageClause(node)) {
        const kind: EdgeKind = node.token === ts.SyntaxKind.ImplementsKeyword ? 'implements' : 'inherits';
        for (const t of node.types) {
          const name = calleeNameNode(t.expression);
          if (!name) continue;
          const r = this.targetsOfName(name, 'heritage');
          if (r !== 'external') for (const v of r) emit(scope, v, kind);
        }
      }
    });

    const diagnostics: Diagnostic[] = [];
    const errors = parseDiagnostics(sf);
    if (errors.length > 0) {
      diagnostics.push({
        severity: 'warning',
        code: 'PARSE_ERRORS',
        message: `${errors.length} syntax error${errors.length === 1 ? '' : 's'}; the first: ${ts.flattenDiagnosticMessageText(errors[0]!.messageText, ' ')}`,
      });
    }
    return { counts, diagnostics };
  }

  /** The file node of the module a specifier resolves to, when it is a file of the repository. */
  private moduleTarget(spec: ts.StringLiteralLike): VName | undefined {
    const sym = this.checker.getSymbolAtLocation(spec);
    const decl =
      sym?.declarations?.find(ts.isSourceFile) ??
      (sym?.valueDeclaration && ts.isSourceFile(sym.valueDeclaration) ? sym.valueDeclaration : undefined);
    if (!decl) return undefined;
    const path = this.repoPath(decl.fileName);
    return path === undefined ? undefined : this.vnameOf(decl, path, '');
  }

  /** Callee definitions of a call-like node: `[]` when nothing resolved, `'external'` when only outside the repository, undefined when not a call. */
  private callTargets(node: ts.Node): VName[] | 'external' | undefined {
    let calleeExpr: ts.Expression | undefined;
    let purpose: Purpose = 'call';
    if (ts.isCallExpression(node)) {
      if (node.expression.kind === ts.SyntaxKind.SuperKeyword) return this.signatureTargets(node);
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) return undefined;
      calleeExpr = node.expression;
    } else if (ts.isNewExpression(node)) {
      calleeExpr = node.expression;
      purpose = 'new';
    } else if (ts.isTaggedTemplateExpression(node)) {
      calleeExpr = node.tag;
    } else if (ts.isDecorator(node)) {
      if (ts.isCallExpression(node.expression)) return undefined; // the call inside is visited on its own
      calleeExpr = node.expression;
    } else if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      const tag = node.tagName;
      if (ts.isIdentifier(tag) && /^[a-z]/.test(tag.text)) return undefined;
      if (ts.isJsxNamespacedName(tag)) return undefined;
      calleeExpr = tag;
    }
    if (!calleeExpr) return undefined;
    const name = calleeNameNode(calleeExpr);
    // A callee with no name (`f()()`, `(a ?? b)()`) is a value computed at run time: what the
    // checker would give is a call signature of a type, not a definition, and asking costs a
    // full overload resolution. Left unresolved.
    if (!name) return [];
    const text = ts.isIdentifier(name) || ts.isPrivateIdentifier(name) ? name.text : (name as ts.StringLiteralLike).text;
    if (!this.namesOfDefinitions().has(text)) return 'external';
    return this.targetsOfName(name, purpose);
  }

  /** `super(…)`: the constructor of the base class the checker resolves. */
  private signatureTargets(node: ts.CallExpression): VName[] | 'external' {
    const decl = this.checker.getResolvedSignature(node)?.declaration;
    if (!decl || ts.isJSDocSignature(decl)) return [];
    const v = this.declarationTarget(decl);
    return v === undefined ? [] : v === 'external' ? v : [v];
  }

  /**
   * The symbol of `ns.member` when `ns` names a module or namespace (`import * as ns`, a
   * `namespace`): looked up in its exports by name, without computing any type — the checker
   * would otherwise type the whole property access. Undefined when the fast path does not apply.
   */
  private namespaceMember(name: ts.Node): ts.Symbol | undefined {
    const access = name.parent;
    if (!ts.isPropertyAccessExpression(access) || access.name !== name) return undefined;
    const left = access.expression;
    let container: ts.Symbol | undefined;
    if (ts.isIdentifier(left)) container = this.checker.getSymbolAtLocation(left);
    else if (ts.isPropertyAccessExpression(left)) container = this.namespaceMember(left.name);
    if (!container) return undefined;
    if (container.flags & ts.SymbolFlags.Alias) container = this.checker.getAliasedSymbol(container);
    // Only pure modules and namespaces: a namespace merged with a value (a function, a class,
    // a variable) is typed like that value.
    if (!(container.flags & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule))) return undefined;
    if (container.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable | ts.SymbolFlags.Enum))
      return undefined;
    return this.checker.tryGetMemberInModuleExports((name as ts.Identifier).text, container);
  }

  /** Definitions a name refers to, aliases (imports, re-exports, `import * as`) and union members followed. */
  private targetsOfName(name: ts.Node, purpose: Purpose): VName[] | 'external' {
    let sym = (ts.isIdentifier(name) ? this.namespaceMember(name) : undefined) ?? this.checker.getSymbolAtLocation(name);
    if (!sym) return [];
    if (sym.flags & ts.SymbolFlags.Alias) {
      const aliased = this.checker.getAliasedSymbol(sym);
      if (aliased.declarations?.length) sym = aliased;
    }
    const out: VName[] = [];
    const keys = new Set<string>();
    let external = false;
    for (const root of this.checker.getRootSymbols(sym)) {
      let s = root;
      if (s.flags & ts.SymbolFlags.Alias) {
        const aliased = this.checker.getAliasedSymbol(s);
        if (aliased.declarations?.length) s = aliased;
      }
      const decls = this.pickDeclarations(s, purpose);
      for (const d of decls) {
        const v = this.declarationTarget(d);
        if (v === 'external') external = true;
        else if (v) {
          const k = `${v.path}\0${v.signature}`;
          if (!keys.has(k)) {
            keys.add(k);
            out.push(v);
          }
        }
      }
    }
    return out.length === 0 && external ? 'external' : out;
  }

  /** The declarations of a symbol that fit the use: values for calls, types for type references, constructors for `new`. */
  private pickDeclarations(sym: ts.Symbol, purpose: Purpose): ts.Declaration[] {
    const all = sym.declarations ?? [];
    if (purpose === 'type' || purpose === 'heritage') {
      const types = all.filter(
        (d) =>
          TYPE_KINDS.has(d.kind) &&
          (!ts.isVariableDeclaration(d) || (d.initializer !== undefined && ts.isClassExpression(unwrapExpression(d.initializer)))),
      );
      return types.length > 0 ? types : purpose === 'heritage' ? all.filter((d) => VALUE_KINDS.has(d.kind)) : [];
    }
    const values = all.filter((d) => VALUE_KINDS.has(d.kind));
    if (purpose === 'new') {
      const out: ts.Declaration[] = [];
      for (const d of values) {
        if (ts.isClassDeclaration(d) || ts.isClassExpression(d)) {
          const ctors = d.members.filter(ts.isConstructorDeclaration);
          out.push(...(ctors.length > 0 ? ctors : [d]));
        } else out.push(d);
      }
      return out;
    }
    return values;
  }

  /** The VName of the definition a declaration belongs to; 'external' outside the repository; undefined when it is no definition. */
  private declarationTarget(decl: ts.Node): VName | 'external' | undefined {
    if (this.targets.has(decl)) return this.targets.get(decl);
    const sf = decl.getSourceFile();
    const path = this.repoPath(sf.fileName);
    const d = path === undefined ? undefined : declarationsOf(sf).byDeclaration.get(decl);
    const target = path === undefined ? 'external' : d ? this.vnameOf(sf, path, d.primary.signature) : undefined;
    this.targets.set(decl, target);
    return target;
  }
}
