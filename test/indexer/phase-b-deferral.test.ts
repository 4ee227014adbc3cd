// Newer edits put an edit's Phase B off: its files keep their Phase A graph, the store remembers
// them, and the next run (the daemon's, or any `travsr index`) analyzes them again — ending in
// the graph a rebuild makes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoUpdater, type UpdateEvent } from '../../host/src/daemon/repo-updater.js';
import { indexWorkspace } from '../../host/src/workspace/index-workspace.js';
import { openWorkspace, type Workspace } from '../../host/src/workspace/workspace.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let repo: GitRepo;
let ws: Workspace;

beforeAll(async () => {
  repo = new GitRepo('travsr-defer-');
  repo
    .write({
      'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }),
      'src/geometry.ts': 'export function area(r: number): number {\n  return 3.14 * r * r;\n}\n',
      'src/app.ts': "import { area } from './geometry';\n\nexport function main(): number {\n  return area(1);\n}\n",
      'src/other.ts': 'export function area(): number {\n  return 0;\n}\n',
    })
    .commit('one');
  const init = await travsr(['init', repo.root, '--no-hook']);
  expect(init.code, init.stderr).toBe(0);
  ws = await openWorkspace(repo.root);
}, 120_000);

afterAll(() => {
  ws?.close();
  repo?.dispose();
});

const phases = () => Object.fromEntries(ws.store.listFiles().map((f) => [f.path, f.phase]));
const exported = () => JSON.stringify(ws.store.exportGraph());

async function rebuilt(): Promise<string> {
  const before = exported();
  await indexWorkspace(ws, { kind: 'full', rebuild: true }, { progress: false });
  const after = exported();
  expect(after).toBe(before);
  return after;
}

describe('Phase B put off by newer edits', () => {
  it('keeps the Phase A graph of the files put off, remembers them in the store, and the next run resolves them', async () => {
    repo.write({
      'src/app.ts': "import { area } from './geometry';\n\nexport function main(): number {\n  return area(2) + area(3);\n}\n",
    });
    const put = await indexWorkspace(
      ws,
      { kind: 'incremental', changed: ['src/app.ts'], deleted: [] },
      { progress: false, extra: { deferLaterPhases: AbortSignal.abort() } },
    );
    expect(put.deferred).toEqual(['src/app.ts']);
    expect(put.plugins.find((p) => p.id === 'lang-typescript')?.deferred).toBe(1);
    expect(ws.store.deferredFiles()).toEqual(['src/app.ts']);
    expect(phases()['src/app.ts']).toBe('A');

    // The next run is asked for nothing: the store's list is enough.
    const next = await indexWorkspace(ws, { kind: 'incremental', changed: [], deleted: [] }, { progress: false });
    expect(next.deferred).toBeUndefined();
    expect(next.analyzed).toBeGreaterThanOrEqual(1);
    expect(ws.store.deferredFiles()).toEqual([]);
    expect(phases()['src/app.ts']).toBe('B');
    await rebuilt();
  });

  it('under the daemon: an edit that comes while a run stores Phase A puts its Phase B off, and the graph ends as a rebuild makes it', async () => {
    const events: UpdateEvent[] = [];
    let edited = false;
    const updater: RepoUpdater = new RepoUpdater(ws, {
      debounceMs: 20,
      maxDelayMs: 2_000,
      onUpdate: (e) => {
        events.push(e);
        if (e.stage === 'phase-a' && !edited) {
          // Saved again while the first edit's Phase A is stored: its Phase B is not asked for.
          edited = true;
          repo.write({ 'src/geometry.ts': 'export function area(r: number): number {\n  return Math.PI * r * r;\n}\n' });
          updater.changed(['src/geometry.ts']);
        }
      },
    });
    repo.write({ 'src/app.ts': "import { area } from './geometry';\n\nexport function main(): number {\n  return area(4);\n}\n" });
    updater.changed(['src/app.ts']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await updater.idle();
    await updater.close();
    const done = events.filter((e) => e.stage === 'done');
    expect(done[0]?.summary?.deferred).toEqual(['src/app.ts']);
    expect(done.at(-1)?.summary?.deferred).toBeUndefined();
    expect(events.filter((e) => e.stage === 'failed')).toEqual([]);
    expect(ws.store.deferredFiles()).toEqual([]);
    expect(phases()).toMatchObject({ 'src/app.ts': 'B', 'src/geometry.ts': 'B' });
    await rebuilt();
  });
});
