import { describe, expect, it } from 'vitest';
import { FileWriteBatch, MAX_PENDING_FILES } from '../../src/indexer/file-write-batch.js';
import type { FileGraphInput } from '../../src/store/index.js';
import { analysis, def, tempStore } from '../store/graph-fixtures.js';

describe('FileWriteBatch: the one way a run writes each file’s outcome', () => {
  it('stores analyses and failures alike, in order, and tells what was stored once it is', () => {
    const store = tempStore();
    const stored: string[][] = [];
    const writes = new FileWriteBatch(store, { onStored: (inputs) => stored.push(inputs.map((i) => `${i.path}:${i.status}`)) }, 10);
    writes.add(analysis('src/a.ts', { nodes: [def('src/a.ts', '#a')] }));
    writes.fail({
      path: 'src/b.ts',
      sha256: 'b1',
      language: 'typescript',
      plugin: 'lang-typescript@0.1.0',
      phase: 'A',
      reason: 'not analyzed: the plugin stopped',
    });
    expect(stored).toEqual([]); // nothing before the flush
    writes.flush();
    expect(stored).toEqual([['src/a.ts:ok', 'src/b.ts:failed']]);
    const b = store.listFiles().find((f) => f.path === 'src/b.ts');
    expect(b).toMatchObject({ status: 'failed', reason: 'not analyzed: the plugin stopped', plugin: 'lang-typescript@0.1.0' });
    store.close();
  });

  it('records an analysis the store refuses as a failure with the store’s reason, and keeps the file’s older graph', () => {
    const store = tempStore();
    store.replaceFile(analysis('src/a.ts', { nodes: [def('src/a.ts', '#old')] }));
    const refused: string[] = [];
    const stored: string[] = [];
    const writes = new FileWriteBatch(store, {
      onStored: (inputs) => stored.push(...inputs.map((i) => i.path)),
      onRefused: (input, error) => refused.push(`${input.path}: ${error.code}`),
    });
    const bad = { ...analysis('src/a.ts', { sha256: 'v2', nodes: [def('src/a.ts', '#new')] }), phase: 'C' } as unknown as FileGraphInput;
    writes.add(bad);
    writes.add(analysis('src/ok.ts', { nodes: [def('src/ok.ts', '#ok')] }));
    writes.flush();
    expect(stored).toEqual(['src/ok.ts']);
    expect(refused).toEqual([expect.stringMatching(/^src\/a\.ts: [A-Z_]+$/)]);
    const a = store.listFiles().find((f) => f.path === 'src/a.ts');
    expect(a?.status).toBe('failed');
    expect(a?.reason).toContain('phase C is not A or B');
    expect(store.fileNodes('src/a.ts').map((n) => n.vname.signature)).toEqual(['#old']);
    store.close();
  });

  it('stores on a later turn of the event loop, `size` files per turn, so the stream is read first', async () => {
    const store = tempStore();
    const stored: number[] = [];
    const writes = new FileWriteBatch(store, { onStored: (inputs) => stored.push(inputs.length) }, 4);
    for (let i = 0; i < 10; i++) writes.add(analysis(`src/f${i}.ts`, { nodes: [def(`src/f${i}.ts`, `#f${i}`)] }));
    expect(stored).toEqual([]); // nothing while the files come in
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored).toEqual([4]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(stored).toEqual([4, 4]);
    writes.flush(); // the rest at once
    expect(stored).toEqual([4, 4, 2]);
    expect(store.listFiles().map((f) => f.path)).toHaveLength(10);
    store.close();
  });

  it('stores at once when a plugin outruns the store (MAX_PENDING_FILES waiting)', () => {
    const store = tempStore();
    const stored: number[] = [];
    const writes = new FileWriteBatch(store, { onStored: (inputs) => stored.push(inputs.length) }, MAX_PENDING_FILES * 2);
    for (let i = 0; i < MAX_PENDING_FILES; i++) writes.add(analysis(`src/f${i}.ts`));
    expect(stored).toEqual([MAX_PENDING_FILES]);
    writes.flush();
    expect(stored).toEqual([MAX_PENDING_FILES]);
    store.close();
  });

  it('throws what a commit on a later turn threw from the next flush, or from throwIfFailed before it', async () => {
    for (const check of ['flush', 'throwIfFailed'] as const) {
      const store = tempStore();
      const writes = new FileWriteBatch(store, {}, 2);
      writes.add(analysis('src/a.ts'));
      store.close(); // the scheduled commit finds the store closed
      writes.add(analysis('src/b.ts'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(() => writes[check]()).toThrow(/database|closed|open/i);
      expect(() => writes.flush()).not.toThrow(); // said once
    }
  });
});
