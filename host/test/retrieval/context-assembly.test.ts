// get_context on a real store and real source files: seeds, graph spread, budget, RBAC, determinism.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_ACCESS } from '../../src/retrieval/access-policy.js';
import { CodeGraph } from '../../src/retrieval/code-graph.js';
import { getContext, renderContext } from '../../src/retrieval/context-assembly.js';
import { countTokens } from '../../src/retrieval/token-count.js';
import { GraphStore } from '../../src/store/graph-store.js';
import { analysis, CORPUS, edge, vn } from '../store/graph-fixtures.js';
import type { Node } from '@travsr/protocol';

/** A repository on disk with its store: files auth/token.ts, http/client.ts, billing/invoice.ts. */
function fixture(opts: { acl?: string } = {}) {
  const root = mkdtempSync(join(tmpdir(), 'travsr-context-'));
  const files: Record<string, string[]> = {
    'src/auth/token.ts': [
      '/** Verifies a JWT and returns its claims. */',
      'export function verifyToken(token: string) {',
      '  return decodeClaims(token);',
      '}',
      'export function decodeClaims(token: string) {',
      '  return JSON.parse(atob(token.split(".")[1]));',
      '}',
    ],
    'src/http/client.ts': [
      'export function sendWithAuth(req: Request) {',
      '  verifyToken(req.headers.get("authorization") ?? "");',
      '  return fetch(req);',
      '}',
    ],
    'src/billing/invoice.ts': ['export function computeInvoiceTotal(lines: number[]) {', '  return lines.reduce((a, b) => a + b, 0);', '}'],
  };
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), lines.join('\n') + '\n');
  }
  const store = GraphStore.open(join(root, '.travsr', 'graph.db'));
  const fn = (path: string, name: string, startLine: number, endLine: number): Node => ({
    vname: vn(path, `#${name}`),
    kind: 'function',
    name,
    qualifiedName: name,
    range: { startLine, startCol: 0, endLine, endCol: 1 },
  });
  const file = (path: string): Node => ({
    vname: vn(path, ''),
    kind: 'file',
    name: path.split('/').pop()!,
    range: { startLine: 1, startCol: 0, endLine: 8, endCol: 0 },
  });
  const verify = fn('src/auth/token.ts', 'verifyToken', 2, 4);
  const decode = fn('src/auth/token.ts', 'decodeClaims', 5, 7);
  const send = fn('src/http/client.ts', 'sendWithAuth', 1, 4);
  const invoice = fn('src/billing/invoice.ts', 'computeInvoiceTotal', 1, 3);
  const text = (p: string) => files[p]!.join('\n');
  const sha = (p: string) =>
    createHash('sha256')
      .update(text(p) + '\n')
      .digest('hex');
  store.replaceFile(
    analysis('src/auth/token.ts', {
      sha256: sha('src/auth/token.ts'),
      nodes: [file('src/auth/token.ts'), verify, decode],
      edges: [
        edge(verify.vname, decode.vname),
        edge(vn('src/auth/token.ts', ''), verify.vname, 'contains'),
        edge(vn('src/auth/token.ts', ''), decode.vname, 'contains'),
      ],
      text: text('src/auth/token.ts'),
    }),
  );
  store.replaceFile(
    analysis('src/http/client.ts', {
      sha256: sha('src/http/client.ts'),
      nodes: [file('src/http/client.ts'), send],
      edges: [edge(send.vname, verify.vname, 'calls', 'phase-a', 0.35), edge(vn('src/http/client.ts', ''), send.vname, 'contains')],
      text: text('src/http/client.ts'),
    }),
  );
  store.replaceFile(
    analysis('src/billing/invoice.ts', {
      sha256: sha('src/billing/invoice.ts'),
      nodes: [file('src/billing/invoice.ts'), invoice],
      edges: [edge(vn('src/billing/invoice.ts', ''), invoice.vname, 'contains')],
      text: text('src/billing/invoice.ts'),
      ...(opts.acl ? { acl: opts.acl } : {}),
    }),
  );
  store.setMeta('index_state', 'complete');
  return { root, store, cg: new CodeGraph(root, store, CORPUS) };
}

describe('getContext', () => {
  it('ranks the definitions the question is about first, and pulls in what they call', () => {
    const { cg } = fixture();
    const r = getContext(cg, 'where is the JWT token verified?', { policy: FULL_ACCESS, budget: 2000 });
    expect(r.items[0]!.node.name).toBe('verifyToken');
    expect(r.items.map((i) => i.node.name)).toContain('decodeClaims');
    expect(r.files[0]!.path).toBe('src/auth/token.ts');
    expect(r.items[0]!.snippet!.text).toContain('return decodeClaims(token);');
    expect(r.items[0]!.why.join(' ')).toMatch(/name matches the query/);
    const callee = r.items.find((i) => i.node.name === 'decodeClaims')!;
    expect(callee.snippet).toMatchObject({ startLine: 5, endLine: 7, stale: false });
  });

  it('seeds a symbol the question names exactly, however rare its words', () => {
    const { cg } = fixture();
    const r = getContext(cg, 'bug in `computeInvoiceTotal` with empty input', { policy: FULL_ACCESS });
    expect(r.items[0]!.node.name).toBe('computeInvoiceTotal');
    expect(r.items[0]!.why).toContain('the query names computeInvoiceTotal');
  });

  it('never exceeds the token budget: the rendered answer is counted', () => {
    const { cg } = fixture();
    for (const budget of [200, 260, 400, 8000]) {
      const r = getContext(cg, 'verify token claims invoice auth client', { policy: FULL_ACCESS, budget });
      expect(r.tokens).toBeLessThanOrEqual(budget);
      expect(countTokens(renderContext(r))).toBe(r.tokens);
    }
    const small = getContext(cg, 'verify token claims invoice auth client', { policy: FULL_ACCESS, budget: 200 });
    const large = getContext(cg, 'verify token claims invoice auth client', { policy: FULL_ACCESS, budget: 8000 });
    expect(small.items.length).toBeLessThan(large.items.length);
  });

  it('is deterministic for the same graph and query', () => {
    const { cg } = fixture();
    const a = getContext(cg, 'send request with auth token', { policy: FULL_ACCESS });
    const b = getContext(cg, 'send request with auth token', { policy: FULL_ACCESS });
    const strip = (r: typeof a) => ({ ...r, stats: { ...r.stats, ms: 0, stageMs: {} } });
    expect(strip(b)).toEqual(strip(a));
  });

  it('never shows a node the caller may not see, not even as a file', () => {
    const { cg } = fixture({ acl: 'finance' });
    const outsider = getContext(cg, 'computeInvoiceTotal invoice total', { policy: { corpora: '*', groups: ['eng'] } });
    expect(JSON.stringify(outsider.items) + JSON.stringify(outsider.files) + JSON.stringify(outsider.more)).not.toMatch(/invoice/i);
    const insider = getContext(cg, 'computeInvoiceTotal invoice total', { policy: { corpora: '*', groups: ['finance'] } });
    expect(insider.items[0]!.node.name).toBe('computeInvoiceTotal');
    const otherCorpus = getContext(cg, 'verify token', { policy: { corpora: ['github.com/acme/other'], groups: [] } });
    expect(otherCorpus.items).toEqual([]);
    expect(otherCorpus.files).toEqual([]);
  });

  it('says when a snippet comes from a file that changed since indexing', () => {
    const { cg, root } = fixture();
    writeFileSync(join(root, 'src/auth/token.ts'), '// edited\n' + 'x\n'.repeat(10));
    cg.sources.clear();
    const r = getContext(cg, 'verifyToken', { policy: FULL_ACCESS });
    expect(r.items.find((i) => i.node.path === 'src/auth/token.ts')!.snippet!.stale).toBe(true);
  });
});
