// The function stage of get_context on a real store: which definitions rank, on what evidence.
import { describe, expect, it } from 'vitest';
import { FULL_ACCESS } from '../../src/retrieval/access-policy.js';
import { getContext, renderContext } from '../../src/retrieval/context-assembly.js';
import { definitionsByFile, RANKED_DEFINITION_KINDS } from '../../src/retrieval/definition-ranking.js';
import { contextFixture, ENGINEERS, FILES, type SourceFile } from './context-fixture.js';

const ask = (fx: ReturnType<typeof contextFixture>, query: string, policy = FULL_ACCESS) =>
  getContext(fx.cg, query, { policy, explain: true });

describe('the function stage (rankDefinitions through getContext)', () => {
  it('puts first the definition a stack frame lands in, by file and line, and says so', () => {
    const fx = contextFixture();
    const r = ask(fx, 'It crashes:\nTraceback:\n  File "/ci/app/src/http/retry.ts", line 3, in retryRequest\nValueError: boom');
    const [best] = r.functions;
    expect(best!.node.name).toBe('retryRequest');
    expect(best!.signals!.frame).toBe(1);
    expect(best!.why[0]).toBe('a stack frame of the query is in it');
  });

  it('still takes a frame whose line no longer fits (the code moved) by its file and name, at 0.75', () => {
    const fx = contextFixture();
    const r = ask(fx, 'Traceback:\n  File "src/http/retry.ts", line 99, in retryRequest\nboom');
    const retry = r.functions.find((f) => f.node.name === 'retryRequest')!;
    expect(retry.signals!.frame).toBe(0.75);
    expect(retry.why[0]).toBe('a stack frame of the query names it');
  });

  it('finds the definition whose code holds a quoted message or a quoted compound identifier', () => {
    const fx = contextFixture();
    const quoted = ask(fx, 'The log says "connection pool is full, discarding connection" and then it hangs');
    const retry = quoted.functions.find((f) => f.node.name === 'retryRequest')!;
    expect(retry.signals!.quoted).toBeGreaterThan(0);
    expect(retry.why).toContain('its code holds a line or message the query quotes');
    const identifiers = ask(fx, 'it reads `req.headers.get` and gets nothing');
    expect(identifiers.functions[0]!.node.name).toBe('sendWithAuth');
    expect(identifiers.functions[0]!.signals!.identifiers).toBe(1);
    expect(identifiers.functions[0]!.why).toContain('its code uses identifiers the query quotes');
  });

  it("passes a named definition's evidence to its callers and callees, times the edge's confidence", () => {
    const files: SourceFile[] = FILES.map((f) =>
      f.path === 'src/http/client.ts' ? { ...f, defs: f.defs.map((d) => ({ ...d, callConfidence: 0.5 })) } : f,
    );
    const fx = contextFixture(files);
    const r = ask(fx, 'the claims `verifyToken` returns are wrong');
    const signal = (name: string) => r.functions.find((f) => f.node.name === name)?.signals;
    expect(signal('verifyToken')!.mention).toBe(1);
    // decodeClaims is called by verifyToken over a resolved edge; sendWithAuth calls it over a name-matched one.
    expect(signal('decodeClaims')!.neighbour).toBe(1);
    expect(signal('sendWithAuth')!.neighbour).toBe(0.5);
    expect(r.functions.find((f) => f.node.name === 'decodeClaims')!.why).toContain('it calls or is called by a definition the query names');
  });

  it('ranks functions, methods and types only, each with its signals in [0, 1], best first', () => {
    const files: SourceFile[] = [
      ...FILES,
      {
        path: 'src/auth/settings.ts',
        lines: ['export const tokenTtl = 3600;', 'export function tokenSettings() {', '  return { ttl: tokenTtl };', '}'],
        defs: [
          { name: 'tokenTtl', kind: 'variable', lines: [1, 1] },
          { name: 'tokenSettings', lines: [2, 4] },
        ],
      },
    ];
    const fx = contextFixture(files);
    const r = ask(fx, 'token settings and the token ttl');
    expect(r.functions.map((f) => f.node.name)).toContain('tokenSettings');
    expect(r.functions.map((f) => f.node.name)).not.toContain('tokenTtl');
    for (const f of r.functions) {
      expect(RANKED_DEFINITION_KINDS.has(f.node.kind)).toBe(true);
      for (const v of Object.values(f.signals!)) expect(v >= 0 && v <= 1).toBe(true);
    }
    const scores = r.functions.map((f) => f.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('never ranks what the caller may not see', () => {
    const fx = contextFixture();
    const hidden = ask(fx, '`computeInvoiceTotal` returns a wrong invoice total', ENGINEERS);
    expect(hidden.functions.map((f) => f.node.name)).not.toContain('computeInvoiceTotal');
    const finance = ask(fx, '`computeInvoiceTotal` returns a wrong invoice total', { corpora: '*', groups: ['finance'] });
    expect(finance.functions[0]!.node.name).toBe('computeInvoiceTotal');
  });

  it('gives the same ranking for the same graph and question', () => {
    const fx = contextFixture();
    const q = 'retry the request with auth when the token fails to verify';
    const a = ask(fx, q).functions.map((f) => [f.node.id, f.score]);
    expect(a.length).toBeGreaterThan(0);
    expect(ask(fx, q).functions.map((f) => [f.node.id, f.score])).toEqual(a);
  });
});

describe('the rendered answer', () => {
  it('leads with the best definitions when the budget allows, within the budget', () => {
    const fx = contextFixture();
    const q = 'Traceback:\n  File "src/http/retry.ts", line 3, in retryRequest\nboom';
    const r = getContext(fx.cg, q, { policy: FULL_ACCESS, budget: 4000 });
    const text = renderContext(r);
    expect(text).toContain('Best definitions:\n1. src/http/retry.ts:1-4 function retryRequest — a stack frame of the query is in it\n');
    expect(text.indexOf('Best definitions:')).toBeLessThan(text.indexOf('## '));
    // Their code is shown, with the function stage's reasons.
    const retry = r.items.find((it) => it.node.name === 'retryRequest')!;
    expect(retry.snippet!.text).toContain('discarding connection');
    expect(retry.why[0]).toBe('a stack frame of the query is in it');
    // At the smallest budget there is no room for the list, and the budget still holds.
    const small = getContext(fx.cg, q, { policy: FULL_ACCESS, budget: 200 });
    expect(renderContext(small)).not.toContain('Best definitions:');
    expect(small.tokens).toBeLessThanOrEqual(200);
  });
});

describe('definitionsByFile', () => {
  it("lists each file's definitions with lines in line order, files and externals left out", () => {
    const fx = contextFixture();
    const byFile = definitionsByFile(fx.g.snap);
    expect(byFile.get('src/geometry/shape.ts')!.map((d) => fx.g.snap.names[d])).toEqual(['Shape', 'area']);
    expect(byFile.get('src/auth/token.ts')!.map((d) => fx.g.snap.names[d])).toEqual(['verifyToken', 'decodeClaims']);
    expect(definitionsByFile(fx.g.snap)).toBe(byFile);
  });
});
