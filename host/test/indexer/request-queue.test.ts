import { describe, expect, it } from 'vitest';
import type { Job } from '../../src/indexer/change-plan.js';
import { RequestQueue } from '../../src/indexer/request-queue.js';

const job = (path: string): Job => ({ path, language: 'python', sha256: `sha-${path}`, lines: 1 });
const paths = (r: { batch: Job[] } | undefined) => r?.batch.map((j) => j.path);

describe('RequestQueue', () => {
  it('asks for each phase in batches, a dependent whose text is unchanged only in the later phase', () => {
    const files = ['a.py', 'b.py', 'c.py', 'dep.py'].map(job);
    const q = new RequestQueue(['A', 'B'], files, (p) => (p === 'dep.py' ? ['B'] : ['A', 'B']), new Set(), 2);
    expect(q.next()).toMatchObject({ phase: 'A' });
    expect(paths(q.next())).toEqual(['c.py']);
    const b1 = q.next();
    expect(b1?.phase).toBe('B');
    expect(paths(b1)).toEqual(['a.py', 'b.py']);
    expect(paths(q.next())).toEqual(['c.py', 'dep.py']);
    expect(q.next()).toBeUndefined();
  });

  it('chooses a phase’s files when its first batch is asked for: a file that failed before is left out', () => {
    const failed = new Set<string>();
    const q = new RequestQueue(['A', 'B'], ['a.py', 'b.py'].map(job), () => ['A', 'B'], failed, 10);
    expect(paths(q.next())).toEqual(['a.py', 'b.py']);
    failed.add('a.py'); // its Phase A answer was a failure
    expect(paths(q.next())).toEqual(['b.py']);
  });

  it('puts files back for a restarted plugin, and gives up the rest of the run when told to', () => {
    const q = new RequestQueue(['A', 'B'], ['a.py', 'b.py', 'c.py'].map(job), () => ['A', 'B'], new Set(), 1);
    expect(paths(q.next())).toEqual(['a.py']);
    q.requeue([job('a.py')]);
    expect(paths(q.next())).toEqual(['a.py']);
    expect(paths(q.next())).toEqual(['b.py']);
    expect(q.abandonPhase().map((j) => j.path)).toEqual(['c.py']);
    expect(q.next()).toBeUndefined();
  });

  it('asks for the later phase of the changed files in a request of their own, ahead of their dependents', () => {
    const files = ['dep1.py', 'edited.py', 'dep2.py'].map(job);
    const changed = (p: string) => p === 'edited.py';
    const q = new RequestQueue(['A', 'B'], files, (p) => (changed(p) ? ['A', 'B'] : ['B']), new Set(), 10, undefined, changed);
    expect(q.next()).toMatchObject({ phase: 'A', batch: [{ path: 'edited.py' }] });
    expect(q.next()).toMatchObject({ phase: 'B', ahead: true, batch: [{ path: 'edited.py' }] });
    const rest = q.next();
    expect(rest?.ahead).toBeUndefined();
    expect(paths(rest)).toEqual(['dep1.py', 'dep2.py']);
    expect(q.next()).toBeUndefined();
  });

  it('asks for nothing ahead when the changed files are the whole phase', () => {
    const q = new RequestQueue(
      ['A', 'B'],
      ['a.py'].map(job),
      () => ['A', 'B'],
      new Set(),
      10,
      undefined,
      () => true,
    );
    q.next();
    expect(q.next()).toEqual({ phase: 'B', batch: [job('a.py')] });
  });
});
