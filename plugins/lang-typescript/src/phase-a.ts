import { FileGraphBuilder, LineIndex, type AnalyzeFile, type FileAnalysis, type FileResult, type Node, type SourceFile } from '@travsr/sdk';
import ts from 'typescript';
import { declarationsOf, type Declaration } from './declarations.js';
import { failedResult } from './failed-result.js';
import { languageOf } from './languages.js';
import { calleeNameNode, calleeText, moduleSpecifierOf, parseDiagnostics, parseSource, walkWithScopes } from './syntax.js';

const MAX_SKELETON_LINES = 12;
const MAX_SKELETON_CHARS = 1500;
const MAX_DOC_CHARS = 600;

/**
 * Phase A of one file, from the parser alone: definition nodes with qualified names,
 * ranges and skeletons; unresolved refs for imports (module specifiers), call sites (the
 * callee as written) and `extends` / `implements`. Syntax errors give one `PARSE_ERRORS`
 * warning; what parsed is still reported.
 */
export function analyzePhaseA(
  file: Pick<SourceFile, 'path' | 'text'>,
  graph: FileGraphBuilder,
  sf: ts.SourceFile = parseSource(file.path, file.text),
): FileAnalysis {
  // TypeScript's own rows: it also breaks lines at a lone \r, U+2028 and U+2029.
  const lines = new LineIndex(sf.text, { lineStarts: sf.getLineStarts() });
  const decls = declarationsOf(sf);
  const isJs = languageOf(file.path) === 'javascript';

  const nodes = new Map<Declaration, Node>();
  for (const d of decls.list) {
    const start = d.rangeNode.getStart(sf);
    nodes.set(
      d,
      graph.define({
        kind: d.kind,
        name: d.name,
        qualifiedName: d.qualifiedName,
        signature: d.signature,
        range: lines.rangeOfOffsets(start, d.rangeNode.end),
        skeleton: skeletonOf(sf, d, start),
        parent: d.parent ? nodes.get(d.parent)! : graph.fileNode,
      }),
    );
  }

  const srcOf = (scope: Declaration | undefined) => (scope ? nodes.get(scope)! : graph.fileNode);
  const refAt = (
    scope: Declaration | undefined,
    kind: 'calls' | 'imports' | 'inherits' | 'implements',
    name: string | undefined,
    at: ts.Node,
  ) => {
    if (name) graph.ref(srcOf(scope), kind, name, lines.rangeOfOffsets(at.getStart(sf), at.end));
  };

  walkWithScopes(
    sf,
    decls,
    (node, scope) => {
      const spec = moduleSpecifierOf(node, isJs);
      if (spec) {
        refAt(undefined, 'imports', spec.text, spec);
        return;
      }
      if (ts.isCallExpression(node)) {
        if (node.expression.kind === ts.SyntaxKind.SuperKeyword || node.expression.kind === ts.SyntaxKind.ImportKeyword) return;
        const name = calleeNameNode(node.expression);
        if (name) refAt(scope, 'calls', calleeText(node.expression), name);
      } else if (ts.isNewExpression(node) || ts.isDecorator(node)) {
        const name = calleeNameNode(node.expression);
        if (name) refAt(scope, 'calls', calleeText(node.expression), name);
      } else if (ts.isTaggedTemplateExpression(node)) {
        const name = calleeNameNode(node.tag);
        if (name) refAt(scope, 'calls', calleeText(node.tag), name);
      } else if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
        const tag = node.tagName;
        if (ts.isIdentifier(tag) && /^[a-z]/.test(tag.text)) return; // intrinsic element (<div>)
        const name = ts.isJsxNamespacedName(tag) ? undefined : calleeNameNode(tag);
        if (name && !ts.isJsxNamespacedName(tag)) refAt(scope, 'calls', calleeText(tag), name);
      } else if (ts.isHeritageClause(node)) {
        const kind = node.token === ts.SyntaxKind.ImplementsKeyword ? 'implements' : 'inherits';
        for (const t of node.types) {
          const name = calleeNameNode(t.expression);
          if (name) refAt(scope, kind, calleeText(t.expression), name);
        }
      }
    },
    { skipTypes: true },
  );

  const errors = parseDiagnostics(sf);
  if (errors.length > 0) {
    const first = errors[0]!;
    graph.diagnostic({
      severity: 'warning',
      code: 'PARSE_ERRORS',
      message: `${errors.length} syntax error${errors.length === 1 ? '' : 's'}; the first: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`,
      range: lines.rangeOfOffsets(first.start, first.start + first.length),
    });
  }
  return graph.build();
}

/**
 * Phase A of one file as a result of a whole-request analysis: a failure of the analyzer on
 * this file reports the file failed (`ANALYZER_ERROR`), as the SDK does for `analyzeFile`.
 */
export function phaseAResult(file: AnalyzeFile & { text: string }, corpus: string, sf: () => ts.SourceFile): FileResult {
  try {
    const graph = new FileGraphBuilder({ corpus, path: file.path, language: file.language });
    return { path: file.path, ...analyzePhaseA(file, graph, sf()) };
  } catch (e) {
    return failedResult(file, 'ANALYZER_ERROR', `the analyzer failed on this file: ${(e as Error).message}`);
  }
}

/**
 * The leading doc comment (`/** … *\/`) and the declaration's header: what a reader needs
 * to call it. The implementation of an overloaded function also lists its overload
 * signatures (and takes their doc when it has none).
 */
function skeletonOf(sf: ts.SourceFile, d: Declaration, start: number): string {
  const own = headerOf(sf, d, start);
  const doc = docOf(sf, d) || (d.overloads?.[0] ? docOf(sf, d.overloads[0]) : undefined);
  const overloads = (d.overloads ?? []).map((o) => headerOf(sf, o, o.rangeNode.getStart(sf)));
  return [...(doc ? [doc] : []), ...overloads, own].join('\n');
}

function headerOf(sf: ts.SourceFile, d: Declaration, start: number): string {
  let header = sf.text.slice(start, Math.max(start, Math.min(d.headerEnd, d.rangeNode.end))).trimEnd();
  if (header.endsWith('{')) header = header.slice(0, -1).trimEnd();
  const headerLines = header.split('\n');
  let clipped = headerLines.length > MAX_SKELETON_LINES ? headerLines.slice(0, MAX_SKELETON_LINES).join('\n') : header;
  if (clipped.length > MAX_SKELETON_CHARS) clipped = clipped.slice(0, MAX_SKELETON_CHARS);
  if (clipped.length < header.length) clipped += ' …';
  return clipped;
}

function docOf(sf: ts.SourceFile, d: Declaration): string | undefined {
  const text = sf.text;
  const comments = ts.getLeadingCommentRanges(text, d.rangeNode.pos) ?? [];
  const last = comments[comments.length - 1];
  if (!last || last.kind !== ts.SyntaxKind.MultiLineCommentTrivia || !text.startsWith('/**', last.pos)) return undefined;
  return docSummary(text.slice(last.pos, last.end));
}

/**
 * The description of a doc comment, without its block tags (`@example`, `@param`, `@since`, …):
 * what a reader or an embedding needs, at a fraction of the size of a documented API's
 * examples. Clipped to {@link MAX_DOC_CHARS}.
 */
export function docSummary(doc: string): string {
  const lines = doc.split('\n');
  const tag = lines.findIndex((l, i) => i > 0 && /^\s*\*?\s*@\w/.test(l));
  let end = tag;
  while (end > 1 && /^\s*\*?\s*$/.test(lines[end - 1]!)) end--; // blank lines before the tags
  let summary = tag < 0 ? doc : `${lines.slice(0, end).join('\n').trimEnd()}\n */`;
  if (tag === 1 && /^\/\*\*\s*$/.test(lines[0]!)) summary = ''; // tags only
  if (summary.length > MAX_DOC_CHARS) summary = `${summary.slice(0, MAX_DOC_CHARS)} …`;
  return summary;
}
