// A small repository on disk with its store, for the steps of get_context (real SQLite, real files).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Edge, Node, NodeKind } from '@travsr/protocol';
import { FULL_ACCESS, type AccessPolicy } from '../../src/retrieval/access-policy.js';
import { CodeGraph } from '../../src/retrieval/code-graph.js';
import { visibleGraph, type VisibleGraph } from '../../src/retrieval/visible-graph.js';
import { GraphStore } from '../../src/store/graph-store.js';
import { analysis, CORPUS, edge, vn } from '../store/graph-fixtures.js';

/** A definition of a {@link SourceFile}: its name, 1-based lines and the definitions it calls (by name). */
export interface Definition {
  name: string;
  kind?: NodeKind;
  lines: [number, number];
  calls?: string[];
  /** The confidence of its call edges (default 1, resolved; name-matched ones are lower). */
  callConfidence?: number;
}

/** A file of the fixture repository. */
export interface SourceFile {
  path: string;
  lines: string[];
  defs: Definition[];
  acl?: string;
}

/**
 * The default repository: auth (verifyToken → decodeClaims), http (sendWithAuth → verifyToken,
 * retryRequest with a quoted message), a finance-only invoice file, a test of verifyToken and
 * a 30-line class with a method.
 */
export const FILES: SourceFile[] = [
  {
    path: 'src/auth/token.ts',
    lines: [
      '/** Verifies a JWT and returns its claims. */',
      'export function verifyToken(token: string) {',
      '  return decodeClaims(token);',
      '}',
      'export function decodeClaims(token: string) {',
      '  return JSON.parse(atob(token.split(".")[1]));',
      '}',
    ],
    defs: [
      { name: 'verifyToken', lines: [2, 4], calls: ['decodeClaims'] },
      { name: 'decodeClaims', lines: [5, 7] },
    ],
  },
  {
    path: 'src/http/client.ts',
    lines: [
      'export function sendWithAuth(req: Request) {',
      '  verifyToken(req.headers.get("authorization") ?? "");',
      '  return fetch(req);',
      '}',
    ],
    defs: [{ name: 'sendWithAuth', lines: [1, 4], calls: ['verifyToken'] }],
  },
  {
    path: 'src/http/retry.ts',
    lines: [
      'export function retryRequest(req: Request) {',
      '  console.warn("connection pool is full, discarding connection");',
      '  return sendWithAuth(req);',
      '}',
    ],
    defs: [{ name: 'retryRequest', lines: [1, 4], calls: ['sendWithAuth'] }],
  },
  {
    path: 'src/billing/invoice.ts',
    lines: ['export function computeInvoiceTotal(lines: number[]) {', '  return lines.reduce((a, b) => a + b, 0);', '}'],
    defs: [{ name: 'computeInvoiceTotal', lines: [1, 3] }],
    acl: 'finance',
  },
  {
    path: 'tests/token.test.ts',
    lines: ['export function testVerifyToken() {', '  verifyToken("a.b.c");', '}'],
    defs: [{ name: 'testVerifyToken', lines: [1, 3], calls: ['verifyToken'] }],
  },
  {
    path: 'src/geometry/shape.ts',
    lines: [
      'export class Shape {',
      ...Array.from({ length: 28 }, (_, i) => (i === 2 ? '  area() { return this.w * this.h; }' : `  // line ${i + 2}`)),
      '}',
    ],
    defs: [
      { name: 'Shape', kind: 'class', lines: [1, 30] },
      { name: 'area', kind: 'method', lines: [4, 4] },
    ],
  },
];

/** The finance group may read `src/billing/invoice.ts`; this policy may not. */
export const ENGINEERS: AccessPolicy = { corpora: '*', groups: ['eng'] };

/** The repository `files` written to a temp directory and indexed into a real store. */
export function contextFixture(files: SourceFile[] = FILES) {
  const root = mkdtempSync(join(tmpdir(), 'travsr-context-steps-'));
  const store = GraphStore.open(join(root, '.travsr', 'graph.db'));
  const defVName = new Map<string, Node['vname']>();
  for (const f of files) for (const d of f.defs) defVName.set(d.name, vn(f.path, `#${d.name}`));
  for (const f of files) storeFile(root, store, f, defVName);
  store.setMeta('index_state', 'complete');
  const cg = new CodeGraph(root, store, CORPUS);
  /** The graph as `policy` sees it. */
  const seenBy = (policy: AccessPolicy = FULL_ACCESS): VisibleGraph => visibleGraph(cg, policy);
  const g = seenBy();
  /** The dense index of the node named `name` (a definition's name, or a file's path). */
  const dense = (name: string): number => {
    for (let d = 0; d < g.snap.nodeCount; d++)
      if (g.snap.names[d] === name || (g.snap.kinds[d] === 'file' && g.snap.paths[d] === name)) return d;
    throw new Error(`no node ${name}`);
  };
  return { root, store, cg, g, seenBy, dense };
}

/** `f` written to the repository and its analysis stored: its definitions, their `contains` edges and calls (to `defVName`'s). */
function storeFile(root: string, store: GraphStore, f: SourceFile, defVName: ReadonlyMap<string, Node['vname']>): void {
  const text = f.lines.join('\n') + '\n';
  mkdirSync(dirname(join(root, f.path)), { recursive: true });
  writeFileSync(join(root, f.path), text);
  const fileNode: Node = {
    vname: vn(f.path, ''),
    kind: 'file',
    name: f.path.split('/').pop()!,
    range: { startLine: 1, startCol: 0, endLine: f.lines.length, endCol: 0 },
  };
  const nodes: Node[] = [fileNode];
  const edges: Edge[] = [];
  for (const d of f.defs) {
    const v = defVName.get(d.name) ?? vn(f.path, `#${d.name}`);
    nodes.push({
      vname: v,
      kind: d.kind ?? 'function',
      name: d.name,
      qualifiedName: d.name,
      range: { startLine: d.lines[0], startCol: 0, endLine: d.lines[1], endCol: 1 },
    });
    edges.push(edge(fileNode.vname, v, 'contains'));
    for (const callee of d.calls ?? []) {
      const target = defVName.get(callee);
      if (target) edges.push(edge(v, target, 'calls', 'phase-a', d.callConfidence ?? 1));
    }
  }
  store.replaceFile(
    analysis(f.path, {
      sha256: createHash('sha256').update(text).digest('hex'),
      nodes,
      edges,
      text: f.lines.join('\n'),
      ...(f.acl ? { acl: f.acl } : {}),
    }),
  );
}

/** An edit of `f`, indexed: the file written again and its analysis stored again (the graph version moves). */
export function rewriteFile(fx: { root: string; store: GraphStore }, f: SourceFile): void {
  storeFile(fx.root, fx.store, f, new Map());
}
