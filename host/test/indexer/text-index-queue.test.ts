import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TextIndexQueue } from '../../src/indexer/text-index-queue.js';
import { analysis, def, tempStore } from '../store/graph-fixtures.js';

describe('TextIndexQueue', () => {
  it('indexes queued files off the analysis path, waits while held, and skips unreadable ones', async () => {
    const root = mkdtempSync(join(tmpdir(), 'travsr-texts-'));
    writeFileSync(join(root, 'a.py'), 'def refund_order(order):\n    return order\n');
    const store = tempStore();
    store.replaceFile(
      analysis('a.py', {
        nodes: [def('a.py', '#refund_order', 'function', { range: { startLine: 1, startCol: 0, endLine: 2, endCol: 0 } })],
      }),
    );
    store.replaceFile(analysis('missing.py', {}));
    const queue = new TextIndexQueue(store, root);
    const release = queue.hold();
    queue.add(['a.py', 'missing.py']);
    await new Promise((r) => setTimeout(r, 30));
    expect(store.searchFiles('refund')).toEqual([]); // held: nothing indexed yet
    release();
    await queue.idle();
    expect(store.searchFiles('refund').map((h) => h.path)).toEqual(['a.py']);
    expect(store.searchDefinitions('refund order')).toHaveLength(1);
    expect(queue.indexed).toBe(1);
    expect(store.filesWithoutText()).toEqual(['missing.py']); // unreadable: retried by the next run
    store.close();
  });
});
