import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TextIndexQueue } from '../../src/indexer/text-index-queue.js';
import { analysis, def, tempStore } from '../store/graph-fixtures.js';

describe('TextIndexQueue', () => {
  it('indexes queued files off the analysis path, waits while a held stream flows, and skips unreadable ones', async () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-texts-'));
    writeFileSync(join(root, 'a.py'), 'def refund_order(order):\n    return order\n');
    const store = tempStore();
    store.replaceFile(
      analysis('a.py', {
        nodes: [def('a.py', '#refund_order', 'function', { range: { startLine: 1, startCol: 0, endLine: 2, endCol: 0 } })],
      }),
    );
    store.replaceFile(analysis('missing.py', {}));
    // A pause would have to last a minute: the stream below never pauses that long.
    const queue = new TextIndexQueue(store, root, undefined, 60_000);
    const release = queue.hold();
    queue.traffic();
    queue.add(['a.py', 'missing.py']);
    await new Promise((r) => setTimeout(r, 30));
    expect(store.searchFiles('refund')).toEqual([]); // held, the stream flowing: nothing indexed yet
    release();
    await queue.idle();
    expect(store.searchFiles('refund').map((h) => h.path)).toEqual(['a.py']);
    expect(store.searchDefinitions('refund order')).toHaveLength(1);
    expect(queue.indexed).toBe(1);
    expect(store.filesWithoutText()).toEqual(['missing.py']); // unreadable: retried by the next run
    store.close();
  });

  it('indexes in the pauses of a held stream, without waiting for its release', async () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-texts-'));
    writeFileSync(join(root, 'b.py'), 'def ship_parcel(parcel):\n    return parcel\n');
    const store = tempStore();
    store.replaceFile(analysis('b.py', { nodes: [def('b.py', '#ship_parcel', 'function')] }));
    const queue = new TextIndexQueue(store, root, undefined, 5);
    const release = queue.hold();
    queue.traffic();
    queue.add(['b.py']);
    // The stream stops: once it has been quiet a moment, the file is indexed though the hold stands.
    await queue.idle();
    expect(store.searchFiles('parcel').map((h) => h.path)).toEqual(['b.py']);
    release();
    store.close();
  });
});
