import { describe, expect, it } from 'vitest';
import { QueryCache, type CachedAnswer } from '../../src/daemon/query-cache.js';

const answer = (text: string, isError = false): CachedAnswer => ({ text, structuredJson: JSON.stringify({ text }), traceId: 't', isError });
const key = (args: unknown, version = 1, corpora: readonly string[] | '*' = '*') =>
  QueryCache.key({ tool: 'get_callers', args, corpora, groups: [], versions: new Map([['/r', version]]) });

describe('QueryCache', () => {
  it('answers the same call at the same graph version, whatever the order of its arguments', () => {
    const c = new QueryCache({ maxEntries: 10, maxBytes: 1 << 20 });
    c.set(key({ symbol: 'f', depth: 1 }), answer('x'), new Map([['/r', 1]]));
    expect(c.get(key({ depth: 1, symbol: 'f' }))?.text).toBe('x');
    expect(c.get(key({ symbol: 'f', depth: 2 }))).toBeUndefined();
    expect(c.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });
  });

  it('never serves an answer across a graph version or to a caller who sees other corpora', () => {
    const c = new QueryCache({ maxEntries: 10, maxBytes: 1 << 20 });
    c.set(key({ symbol: 'f' }, 1, ['a']), answer('x'), new Map([['/r', 1]]));
    expect(c.get(key({ symbol: 'f' }, 2, ['a']))).toBeUndefined();
    expect(c.get(key({ symbol: 'f' }, 1, ['b']))).toBeUndefined();
    expect(c.get(key({ symbol: 'f' }, 1, ['a']))?.text).toBe('x');
  });

  it('serves an answer made with some parts only to calls that read no more of it', () => {
    const c = new QueryCache({ maxEntries: 10, maxBytes: 1 << 20 });
    const v = new Map([['/r', 1]]);
    c.set(key({ q: 1 }), { ...answer('x'), structuredJson: '' }, v, 'text');
    expect(c.get(key({ q: 1 }), 'text')?.text).toBe('x');
    expect(c.get(key({ q: 1 }), 'structured')).toBeUndefined();
    expect(c.get(key({ q: 1 }))).toBeUndefined();
    c.set(key({ q: 1 }), answer('x'), v, 'both');
    expect(c.get(key({ q: 1 }), 'structured')?.structuredJson).toBe(JSON.stringify({ text: 'x' }));
    expect(c.get(key({ q: 1 }), 'text')?.text).toBe('x');
    expect(c.stats()).toMatchObject({ hits: 3, misses: 2, entries: 1 });
  });

  it('drops the answers of older versions when a version moves, and keeps no errors', () => {
    const c = new QueryCache({ maxEntries: 10, maxBytes: 1 << 20 });
    c.set(key({ symbol: 'f' }, 1), answer('x'), new Map([['/r', 1]]));
    c.set(key({ symbol: 'g' }, 1), answer('bad', true), new Map([['/r', 1]]));
    expect(c.stats().entries).toBe(1);
    c.dropStale('/r', 2);
    expect(c.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('evicts the least recently used past its entry and byte limits', () => {
    const c = new QueryCache({ maxEntries: 2, maxBytes: 1 << 20 });
    const v = new Map([['/r', 1]]);
    c.set(key({ n: 1 }), answer('1'), v);
    c.set(key({ n: 2 }), answer('2'), v);
    c.get(key({ n: 1 })); // 1 is now the most recent
    c.set(key({ n: 3 }), answer('3'), v);
    expect(c.get(key({ n: 2 }))).toBeUndefined();
    expect(c.get(key({ n: 1 }))?.text).toBe('1');
    const small = new QueryCache({ maxEntries: 100, maxBytes: 600 });
    small.set(key({ n: 1 }), answer('a'.repeat(100)), v);
    small.set(key({ n: 2 }), answer('b'.repeat(100)), v);
    expect(small.stats().entries).toBe(1);
    expect(small.stats().bytes).toBeLessThanOrEqual(600);
  });
});
