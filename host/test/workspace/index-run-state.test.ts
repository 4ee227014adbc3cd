// What `travsr status` says about indexing: a run left open is "running" only while a live
// process holds the index lock, else "interrupted".
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GraphStore } from '../../src/store/graph-store.js';
import { indexRunState } from '../../src/workspace/index-run-state.js';
import { analysis, tempDbPath } from '../store/graph-fixtures.js';

describe('indexRunState', () => {
  it('never, running (lock held by a live process), interrupted (lock gone), complete', () => {
    const db = tempDbPath();
    const root = dirname(dirname(db));
    const store = GraphStore.open(db);
    expect(indexRunState(root, store)).toMatchObject({ state: 'never', pendingFiles: 0, note: null });

    const run = store.beginIndexRun('rebuild');
    store.replaceFile(analysis('a.ts'));
    const lock = join(root, '.travsr', 'index.lock');
    writeFileSync(lock, `${process.pid}\n`);
    expect(indexRunState(root, store)).toMatchObject({ state: 'running', mode: 'rebuild', pid: process.pid, pendingFiles: 1 });

    rmSync(lock);
    const interrupted = indexRunState(root, store);
    expect(interrupted).toMatchObject({ state: 'interrupted', mode: 'rebuild', pid: null, pendingFiles: 1, endedAt: null });
    expect(interrupted.note).toMatch(
      /^the last index run \(rebuild, started .*\) was interrupted with 1 unfinished file; run `travsr index`/,
    );

    store.completeIndexRun(run.id);
    expect(indexRunState(root, store)).toMatchObject({ state: 'complete', pendingFiles: 0, note: null });
    store.close();
  });
});
