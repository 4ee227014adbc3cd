import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planChanges } from '../../src/indexer/change-plan.js';
import type { IndexMode } from '../../src/indexer/indexer.js';
import { emptySummary, type IndexSummary } from '../../src/indexer/index-summary.js';
import type { TreeClaims } from '../../src/indexer/tree-claims.js';
import type { GraphStore } from '../../src/store/graph-store.js';
import { analysis, def, edge, tempStore, vn } from '../store/graph-fixtures.js';

// Step 2 and 3 of an index run against a real store and real files: what is hashed, what is
// unchanged, removed or skipped, and which dependents are added (and which keep their text).

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

const summary = (): IndexSummary => emptySummary('full', '');

/** A repository on disk, its files stored as analyzed (a.ts ← b.ts: b calls a's function). */
function setup(files: Record<string, string>): { root: string; store: GraphStore } {
  const root = mkdtempSync(join(tmpdir(), 'travsr-plan-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const store = tempStore();
  store.replaceFile(analysis('a.ts', { sha256: sha(files['a.ts']!), nodes: [def('a.ts', '#f')] }));
  store.replaceFile(
    analysis('b.ts', {
      sha256: sha(files['b.ts']!),
      nodes: [def('b.ts', '#g')],
      edges: [edge(vn('b.ts', '#g'), vn('a.ts', '#f'), 'calls', 'phase-a')],
    }),
  );
  store.replaceFile(analysis('gone.ts', { sha256: 'old' }));
  return { root, store };
}

function claims(paths: string[], skipped: Record<string, string> = {}): TreeClaims {
  return {
    claimed: new Map(paths.map((p) => [p, { language: 'typescript', plugin: 'lang-typescript' }])),
    skipped: new Map(Object.entries(skipped).map(([p, reason]) => [p, { reason, detail: 'test' }])),
  };
}

async function plan(store: GraphStore, root: string, mode: IndexMode, c: TreeClaims, pluginLabels?: ReadonlyMap<string, string>) {
  const s = summary();
  const work: string[] = [];
  const p = await planChanges({
    store,
    repoRoot: root,
    mode,
    claims: c,
    pendingBefore: new Set(),
    summary: s,
    onWork: (id) => work.push(id),
    ...(pluginLabels ? { pluginLabels } : {}),
  });
  return { ...p, summary: s, work };
}

describe('planChanges', () => {
  it('a file whose text is unchanged but which another version of its plugin stored is analyzed again (an upgrade adds what it finds)', async () => {
    const files = { 'a.ts': 'export function f() {}\n', 'b.ts': 'f();\n' };
    const { root, store } = setup(files);
    const same = await plan(
      store,
      root,
      { kind: 'full' },
      claims(['a.ts', 'b.ts']),
      new Map([['lang-typescript', 'lang-typescript@0.1.0']]),
    );
    expect(same.jobs.size).toBe(0);
    expect(same.summary).toMatchObject({ unchanged: 2 });
    expect(same.summary.pluginChanged).toBeUndefined();

    const upgraded = await plan(
      store,
      root,
      { kind: 'full' },
      claims(['a.ts', 'b.ts']),
      new Map([['lang-typescript', 'lang-typescript@0.2.0']]),
    );
    expect([...upgraded.jobs.keys()].sort()).toEqual(['a.ts', 'b.ts']);
    // Analyzed from their text, not read again as dependents.
    expect([...upgraded.textUnchanged]).toEqual([]);
    expect(upgraded.summary).toMatchObject({ unchanged: 0, pluginChanged: 2 });
    expect(upgraded.work).toEqual(['lang-typescript', 'lang-typescript']);
  });

  it('a full run: unchanged files by hash, changed ones to analyze with their dependents, missing ones removed', async () => {
    const files = { 'a.ts': 'export function f() {}\n', 'b.ts': 'f();\n' };
    const { root, store } = setup(files);
    writeFileSync(join(root, 'a.ts'), 'export function f() { return 1; }\n');

    const p = await plan(store, root, { kind: 'full' }, claims(['a.ts', 'b.ts']));
    expect([...p.jobs.keys()].sort()).toEqual(['a.ts', 'b.ts']);
    expect(p.jobs.get('a.ts')).toMatchObject({ sha256: sha('export function f() { return 1; }\n'), lines: 1 });
    // b.ts is unchanged on disk but calls into a.ts: a dependent, its stored text kept.
    expect(p.jobs.get('b.ts')).toMatchObject({ sha256: sha(files['b.ts']) });
    expect([...p.textUnchanged]).toEqual(['b.ts']);
    expect([...p.toRemove]).toEqual(['gone.ts']);
    expect(p.summary).toMatchObject({ unchanged: 1, dependents: 1 });
    expect(p.work).toEqual(['lang-typescript']);
  });

  it('an incremental run looks only at the changed files; an unchanged one is counted, not analyzed', async () => {
    const files = { 'a.ts': 'export function f() {}\n', 'b.ts': 'f();\n' };
    const { root, store } = setup(files);
    const p = await plan(store, root, { kind: 'incremental', changed: ['b.ts'], deleted: ['gone.ts'] }, claims(['a.ts', 'b.ts']));
    expect(p.jobs.size).toBe(0);
    expect(p.summary.unchanged).toBe(1);
    expect([...p.toRemove]).toEqual(['gone.ts']);
    expect(p.work).toEqual([]);
  });

  it('a file the walk left out is recorded as skipped (its graph tombstoned), and its dependents analyzed again', async () => {
    const files = { 'a.ts': 'export function f() {}\n', 'b.ts': 'f();\n' };
    const { root, store } = setup(files);
    const p = await plan(store, root, { kind: 'full' }, claims(['b.ts'], { 'a.ts': 'too-large' }));
    expect(store.listFiles().find((f) => f.path === 'a.ts')).toMatchObject({ status: 'skipped', reason: 'too-large: test' });
    expect([...p.jobs.keys()]).toEqual(['b.ts']);
    expect(p.summary.dependents).toBe(1);
  });

  it('a rebuild analyzes every claimed file and adds no dependents', async () => {
    const files = { 'a.ts': 'export function f() {}\n', 'b.ts': 'f();\n' };
    const { root, store } = setup(files);
    const p = await plan(store, root, { kind: 'full', rebuild: true }, claims(['a.ts', 'b.ts']));
    expect([...p.jobs.keys()].sort()).toEqual(['a.ts', 'b.ts']);
    expect(p.summary).toMatchObject({ unchanged: 0, dependents: 0 });
    expect(p.textUnchanged.size).toBe(0);
  });

  it('a claimed file that cannot be read is skipped as unreadable', async () => {
    const files = { 'a.ts': 'export function f() {}\n', 'b.ts': 'f();\n' };
    const { root, store } = setup(files);
    const p = await plan(store, root, { kind: 'full' }, claims(['a.ts', 'b.ts', 'missing.ts']));
    expect(p.summary.skipped).toEqual({ unreadable: 1 });
    expect(p.jobs.has('missing.ts')).toBe(false);
  });
});
