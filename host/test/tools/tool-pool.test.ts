// Tool calls on worker threads: parallel calls, timeouts and cancellation stop a call without
// stopping the pool.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FULL_ACCESS } from '../../src/retrieval/access-policy.js';
import { GraphStore } from '../../src/store/graph-store.js';
import { ToolPool } from '../../src/tools/tool-pool.js';
import type { Trace } from '../../src/traces/trace.js';
import { analysis, CORPUS, def } from '../store/graph-fixtures.js';

function repo(): string {
  const root = mkdtempSync(join(tmpdir(), 'travsr-pool-'));
  const store = GraphStore.open(join(root, '.travsr', 'graph.db'));
  store.replaceFile(analysis('src/a.ts', { nodes: [def('src/a.ts', '#alpha'), def('src/a.ts', '#beta')], text: 'alpha beta' }));
  store.setMeta('index_state', 'complete');
  store.close();
  return root;
}

describe('ToolPool', () => {
  it('runs calls in parallel on workers and answers each', async () => {
    const traces: Trace[] = [];
    const pool = new ToolPool({ graphs: [{ root: repo(), corpus: CORPUS }], size: 2, saveTrace: (t) => traces.push(t) });
    try {
      const results = await Promise.all([
        pool.run('search_symbols', { query: 'alpha' }, FULL_ACCESS),
        pool.run('search_symbols', { query: 'beta' }, FULL_ACCESS),
        pool.run('get_definition', { symbol: 'alpha' }, FULL_ACCESS),
        pool.run('get_callers', {}, FULL_ACCESS),
      ]);
      expect(results.map((r) => r.isError)).toEqual([false, false, false, true]);
      expect(results[0].text).toMatch(/^function alpha/);
      expect(results[1].text).toMatch(/^function beta/);
      expect(results[3].text).toMatch(/INVALID_ARGUMENTS/);
    } finally {
      await pool.close();
    }
  });

  it('starts one worker, and more (up to size) only when calls have to wait for a busy one', async () => {
    const pool = new ToolPool({ graphs: [{ root: repo(), corpus: CORPUS }], size: 3, saveTrace: () => undefined });
    try {
      expect(pool.workers).toBe(1);
      for (const query of ['alpha', 'beta', 'alpha'])
        expect((await pool.run('search_symbols', { query }, FULL_ACCESS)).isError).toBe(false);
      expect(pool.workers).toBe(1);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => pool.run('search_symbols', { query: i % 2 ? 'alpha' : 'beta' }, FULL_ACCESS)),
      );
      expect(results.map((r) => r.isError)).toEqual(Array(8).fill(false));
      expect(pool.workers).toBeGreaterThan(1);
      expect(pool.workers).toBeLessThanOrEqual(3);
    } finally {
      await pool.close();
    }
  });

  it('answers with the structured content as JSON made on the worker when asked (runJson), failures too', async () => {
    const pool = new ToolPool({ graphs: [{ root: repo(), corpus: CORPUS }], size: 1, saveTrace: () => {} });
    try {
      const args = { query: 'alpha' };
      const [asObjects, asJson] = [
        await pool.run('search_symbols', args, FULL_ACCESS),
        await pool.runJson('search_symbols', args, FULL_ACCESS),
      ];
      expect(asJson).not.toHaveProperty('structured');
      expect(JSON.parse(asJson.structuredJson)).toEqual({ ...asObjects.structured, trace_id: asJson.traceId });
      expect(asJson.text.replace(asJson.traceId, '')).toBe(asObjects.text.replace(asObjects.traceId, ''));
      const bad = await pool.runJson('get_callers', {}, FULL_ACCESS);
      expect(bad.isError).toBe(true);
      expect(JSON.parse(bad.structuredJson)).toMatchObject({ error: { code: 'INVALID_ARGUMENTS' } });
      const cancelled = await pool.runJson('get_context', args, FULL_ACCESS, AbortSignal.abort());
      expect(JSON.parse(cancelled.structuredJson)).toMatchObject({ error: { code: 'TOOL_CANCELLED' } });
      // Only the parts asked for are made; an error's text comes whatever was asked.
      const text = await pool.runJson('search_symbols', args, FULL_ACCESS, undefined, 'text');
      expect(text).toMatchObject({ structuredJson: '', isError: false });
      expect(text.text.replace(text.traceId, '')).toBe(asObjects.text.replace(asObjects.traceId, ''));
      const structured = await pool.runJson('search_symbols', args, FULL_ACCESS, undefined, 'structured');
      expect(structured.text).toBe('');
      expect(JSON.parse(structured.structuredJson)).toEqual({ ...asObjects.structured, trace_id: structured.traceId });
      const badText = await pool.runJson('get_callers', {}, FULL_ACCESS, undefined, 'structured');
      expect(badText.text).toMatch(/INVALID_ARGUMENTS/);
    } finally {
      await pool.close();
    }
  });

  it('stops a call that runs past the timeout, says so, and keeps serving', async () => {
    const traces: Trace[] = [];
    const pool = new ToolPool({ graphs: [{ root: repo(), corpus: CORPUS }], size: 1, timeoutMs: 1, saveTrace: (t) => traces.push(t) });
    try {
      const r = await pool.run('get_context', { query: 'alpha' }, FULL_ACCESS);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/TOOL_TIMEOUT.*longer than 1 ms and was stopped/);
      expect(traces.find((t) => t.id === r.traceId)).toMatchObject({
        subject: 'get_context',
        status: 'error',
        error: { code: 'TOOL_TIMEOUT' },
      });
    } finally {
      await pool.close();
    }
  });

  it('cancels a running or queued call when its signal aborts; the next call still runs', async () => {
    const pool = new ToolPool({ graphs: [{ root: repo(), corpus: CORPUS }], size: 1, saveTrace: () => undefined });
    try {
      const first = new AbortController();
      const second = new AbortController();
      const running = pool.run('get_context', { query: 'alpha' }, FULL_ACCESS, first.signal);
      const queued = pool.run('get_context', { query: 'beta' }, FULL_ACCESS, second.signal);
      first.abort();
      second.abort();
      expect((await running).text).toMatch(/TOOL_CANCELLED\]: the client cancelled the call/);
      expect((await queued).text).toMatch(/TOOL_CANCELLED/);
      const after = await pool.run('search_symbols', { query: 'alpha' }, FULL_ACCESS);
      expect(after.isError).toBe(false);
    } finally {
      await pool.close();
    }
  });
});
