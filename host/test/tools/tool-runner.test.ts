// runTool on a real store: a whole issue text is a query, however long, up to a limit far beyond
// any real one, past which the refusal says what to do.
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { FULL_ACCESS } from '../../src/retrieval/access-policy.js';
import { QUERY_MAX_CHARS } from '../../src/tools/tool-definitions.js';
import { runTool, type ToolHost } from '../../src/tools/tool-runner.js';
import type { Trace } from '../../src/traces/trace.js';
import { contextFixture } from '../retrieval/context-fixture.js';

const fx = contextFixture();
const traces: Trace[] = [];
const host: ToolHost = { graphs: [fx.cg], saveTrace: (t) => traces.push(t) };
afterAll(() => {
  fx.store.close();
  rmSync(fx.root, { recursive: true, force: true });
});

/** An issue as users paste it: a few lines of prose, a stack trace, then a long log of distinct lines. */
function issueText(logLines: number): string {
  return [
    'Login fails after the token refresh.',
    'Error: invalid signature',
    '    at verifyToken (src/auth/token.ts:3:10)',
    '    at sendWithAuth (src/http/client.ts:2:3)',
    ...Array.from(
      { length: logLines },
      (_, i) => `2026-11-30T10:${String(i % 60).padStart(2, '0')} DEBUG pool_${i} acquired conn${i} in ${i} ms`,
    ),
  ].join('\n');
}

describe('get_context with a long issue text', () => {
  it('answers a 150 kB issue with its log with the functions its stack trace names', () => {
    const query = issueText(2600);
    expect(query.length).toBeGreaterThan(150_000);
    const r = runTool(host, 'get_context', { query, token_budget: 2000 }, FULL_ACCESS);
    expect(r.isError, r.text).toBe(false);
    const items = (r.structured.items as { path: string }[]).map((it) => it.path);
    expect(items).toEqual(expect.arrayContaining(['src/auth/token.ts', 'src/http/client.ts']));
    expect(r.text).toContain("the query's stack trace passes through verifyToken");
    // Neither the answer nor the trace repeats the whole log: a bounded prefix and the length.
    expect(r.structured.query_chars).toBe(query.length);
    expect((r.structured.query as string).length).toBe(2001);
    expect(JSON.stringify(traces.at(-1)!.details.arguments).length).toBeLessThan(2100);
  });

  it('takes a query of the longest length, and refuses a longer one saying what to send instead', () => {
    const longest = issueText(0).padEnd(QUERY_MAX_CHARS, ' lorem');
    expect(runTool(host, 'get_context', { query: longest, token_budget: 1000 }, FULL_ACCESS).isError).toBe(false);
    const over = runTool(host, 'get_context', { query: `${longest}x`, token_budget: 1000 }, FULL_ACCESS);
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/INVALID_ARGUMENTS.*query is longer than the 1,000,000 characters it may have; send the part that matters/);
  });
});
