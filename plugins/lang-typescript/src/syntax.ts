import ts from 'typescript';
import { isTypeSyntax, unwrapExpression, type Declaration, type FileDeclarations } from './declarations.js';
import { scriptKindOf } from './languages.js';

/** JSDoc is parsed only where it carries types (JavaScript files), in both phases. */
export const PARSE_MODE = ts.JSDocParsingMode.ParseForTypeInfo;

/**
 * Parses a file the way Phase A does: the compiler's own parser, no type checker, no
 * parent pointers (nothing in Phase A reads them; Phase B's binder sets them). With the
 * absolute path as the file name, Phase B's program can take the tree over instead of
 * parsing again.
 */
export function parseSource(fileName: string, text: string): ts.SourceFile {
  return ts.createSourceFile(
    fileName,
    text,
    { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: PARSE_MODE },
    false,
    scriptKindOf(fileName),
  );
}

/**
 * The kinds of node a reference is taken from, in either phase: imports and exports with a
 * module specifier (`import()` and `require()` are calls), calls of every form, heritage
 * clauses and type references.
 */
export const REFERENCE_KINDS: ReadonlySet<ts.SyntaxKind> = new Set([
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ImportType,
  ts.SyntaxKind.CallExpression,
  ts.SyntaxKind.NewExpression,
  ts.SyntaxKind.TaggedTemplateExpression,
  ts.SyntaxKind.Decorator,
  ts.SyntaxKind.JsxOpeningElement,
  ts.SyntaxKind.JsxSelfClosingElement,
  ts.SyntaxKind.HeritageClause,
  ts.SyntaxKind.TypeReference,
]);

/**
 * Visits the nodes of a file of the given kinds (default: {@link REFERENCE_KINDS}) with the
 * innermost definition around each (`undefined` at module level). Both phases walk this
 * way, so a call is attributed to the same caller in Phase A (refs) and Phase B (edges).
 * `skipTypes` leaves out type annotations (no calls there; Phase B needs them for type
 * references).
 */
export function walkWithScopes(
  sf: ts.SourceFile,
  decls: FileDeclarations,
  visit: (node: ts.Node, scope: Declaration | undefined) => void,
  options: { skipTypes?: boolean; kinds?: ReadonlySet<ts.SyntaxKind> } = {},
): void {
  const skipTypes = options.skipTypes === true;
  const kinds = options.kinds ?? REFERENCE_KINDS;
  const go = (node: ts.Node, scope: Declaration | undefined): void => {
    if (skipTypes && isTypeSyntax(node)) return;
    const s = decls.byScope.get(node) ?? scope;
    if (kinds.has(node.kind)) visit(node, s);
    ts.forEachChild(node, (c) => go(c, s));
  };
  for (const st of sf.statements) go(st, undefined);
}

/** The identifier a call is named by: `f`, `obj.f`, `this.f`, `obj["f"]`, `new ns.C`. */
export function calleeNameNode(expr: ts.Expression): ts.Node | undefined {
  const e = unwrapExpression(expr);
  if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return e;
  if (ts.isPropertyAccessExpression(e)) return e.name;
  if (ts.isElementAccessExpression(e)) {
    const arg = e.argumentExpression;
    return ts.isStringLiteralLike(arg) || ts.isNumericLiteral(arg) ? arg : undefined;
  }
  return undefined;
}

/**
 * How a callee is written, for a name-matched ref: the dotted chain when it is one
 * (`z.string`, `this.parse`, `Effect.map`), else its last name (`make().run` → `run`).
 */
export function calleeText(expr: ts.Expression): string | undefined {
  const e = unwrapExpression(expr);
  const chain = dottedName(e);
  if (chain !== undefined) return chain;
  const name = calleeNameNode(e);
  if (!name) return undefined;
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) ? name.text : (name as ts.StringLiteral).text;
}

function dottedName(e: ts.Expression, depth = 0): string | undefined {
  if (depth > 16) return undefined;
  if (ts.isIdentifier(e)) return e.text;
  if (e.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (e.kind === ts.SyntaxKind.SuperKeyword) return 'super';
  if (ts.isPropertyAccessExpression(e)) {
    const left = dottedName(e.expression, depth + 1);
    return left === undefined ? undefined : `${left}.${e.name.text}`;
  }
  return undefined;
}

/** The specifier of an import-like node: `import … from 'x'`, `export … from 'x'`, `import x = require('x')`, `import('x')`, `require('x')`. */
export function moduleSpecifierOf(node: ts.Node, isJs: boolean): ts.StringLiteralLike | undefined {
  if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
    const s = node.moduleSpecifier;
    return s && ts.isStringLiteralLike(s) ? s : undefined;
  }
  if (ts.isImportEqualsDeclaration(node)) {
    const r = node.moduleReference;
    return ts.isExternalModuleReference(r) && ts.isStringLiteralLike(r.expression) ? r.expression : undefined;
  }
  if (ts.isCallExpression(node) && node.arguments.length >= 1) {
    const arg = node.arguments[0]!;
    if (!ts.isStringLiteralLike(arg)) return undefined;
    if (node.expression.kind === ts.SyntaxKind.ImportKeyword) return arg;
    if (isJs && ts.isIdentifier(node.expression) && node.expression.text === 'require' && node.arguments.length === 1) return arg;
  }
  if (ts.isImportTypeNode(node)) {
    const a = node.argument;
    return ts.isLiteralTypeNode(a) && ts.isStringLiteralLike(a.literal) ? a.literal : undefined;
  }
  return undefined;
}

/** Syntax errors the parser recorded (not part of the public API, present on every parsed file). */
export function parseDiagnostics(sf: ts.SourceFile): readonly ts.DiagnosticWithLocation[] {
  return (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
}
