import { describe, expect, it } from 'vitest';
import { FileWriteBatch } from '../../src/indexer/file-write-batch.js';
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
});
