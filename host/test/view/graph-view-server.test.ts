// The graph view's server on a real store (the retrieval fixture: sendWithAuth → verifyToken →
// decodeClaims), over real HTTP on 127.0.0.1: the token, and what each API answers through the tools.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessPolicy } from '../../src/retrieval/access-policy.js';
import { startGraphView, type GraphView } from '../../src/view/graph-view-server.js';
import type { ViewGraph } from '../../src/view/view-graph.js';
import { contextFixture } from '../retrieval/context-fixture.js';

const fx = contextFixture();
const host = { graphs: [fx.cg], saveTrace() {} };
let view: GraphView;
let base: string;
let token: string;
beforeAll(async () => {
  view = await startGraphView({ host, focus: 'verifyToken' });
  [base, token] = view.url.split('?token=') as [string, string];
});
afterAll(async () => {
  await view.close();
  fx.store.close();
  rmSync(fx.root, { recursive: true, force: true });
});

const get = (path: string, t: string | null = token) =>
  fetch(`${base}${path.slice(1)}`, { headers: t === null ? {} : { 'x-travsr-token': t } });

describe('startGraphView', () => {
  it('serves only 127.0.0.1, and nothing without the token of this run', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(token).toMatch(/^[\w-]{32}$/);
    expect((await get('/', null)).status).toBe(403);
    expect((await get('/api/neighbourhood?symbol=verifyToken', 'x'.repeat(32))).status).toBe(403);
    expect((await get('/api/neighbourhood?symbol=verifyToken', `${token}x`)).status).toBe(403);
    const page = await fetch(view.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain(`connect-src 'self'`);
  });

  it('answers the neighbourhood of a symbol from get_callers and get_dependencies, in the edges’ own direction', async () => {
    const g = (await (await get('/api/neighbourhood?symbol=verifyToken')).json()) as ViewGraph;
    const name = (id: string) => g.nodes.find((n) => n.id === id)?.name;
    expect(g.roots.map(name)).toEqual(['verifyToken']);
    const calls = g.edges.filter((e) => e.kind === 'calls').map((e) => `${name(e.source)}→${name(e.target)}`);
    expect(calls).toEqual(expect.arrayContaining(['sendWithAuth→verifyToken', 'verifyToken→decodeClaims']));
    const missing = (await (await get('/api/neighbourhood?symbol=noSuchThing')).json()) as ViewGraph;
    expect(missing).toMatchObject({ roots: [], nodes: [], error: 'No symbol matches "noSuchThing"' });
  });

  it('searches, gives a definition’s source and the blast radius, through the tools', async () => {
    const search = (await (await get('/api/search?q=decode%20claims')).json()) as { results: { name: string }[] };
    expect(search.results.map((r) => r.name)).toContain('decodeClaims');
    const def = (await (await get('/api/definition?symbol=verifyToken')).json()) as { text: string };
    expect(def.text).toContain('export function verifyToken(token: string)');
    const blast = (await (await get('/api/blast-radius?symbol=decodeClaims&depth=2')).json()) as {
      nodes: { name: string; depth: number }[];
    };
    expect(blast.nodes.map((n) => `${n.name}@${n.depth}`)).toEqual(expect.arrayContaining(['verifyToken@1', 'sendWithAuth@2']));
  });

  it('shows only what the policy may read', async () => {
    const none: AccessPolicy = { corpora: ['another-corpus'], groups: [] };
    const narrow = await startGraphView({ host, policy: none });
    try {
      const [b, t] = narrow.url.split('?token=') as [string, string];
      const g = (await (await fetch(`${b}api/neighbourhood?symbol=verifyToken`, { headers: { 'x-travsr-token': t } })).json()) as ViewGraph;
      expect(g.nodes).toEqual([]);
      expect(g.error).toBeDefined();
    } finally {
      await narrow.close();
    }
  });
});
