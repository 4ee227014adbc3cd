// Finding 3 of issue 12: a file was recorded with its hash before its Phase B and the name
// matching were stored, so after a kill -9 the next `travsr index` called it unchanged and kept
// a half-built graph for good. Each case kills a real `travsr` (real plugins, real bwrap) at a
// point read from the database, then checks that the next run completes the graph: its export
// equals the export of a fresh index of the same tree.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
const ENV = { TRAVSR_CORPUS: 'attack' };
const TS_FILES = 240;
const RB_FILES = 80;

/**
 * TypeScript modules that import and call each other (lang-typescript resolves the calls in
 * Phase B) and Ruby files whose calls only name matching links (lang-structural, Phase A).
 */
function generatedRepository(): Record<string, string> {
  const files: Record<string, string> = { 'tsconfig.json': '{ "compilerOptions": { "strict": true, "module": "nodenext" } }\n' };
  for (let i = 0; i < TS_FILES; i++) {
    const deps = [(i + 1) % TS_FILES, (i * 7 + 3) % TS_FILES].filter((d) => d !== i);
    files[`src/m${i}.ts`] = [
      ...deps.map((d) => `import { f${d}, C${d} } from './m${d}.js';`),
      `export function f${i}(x: number): number {`,
      `  return ${deps.map((d) => `f${d}(x - 1)`).join(' + ')} + helper(x);`,
      '}',
      `export class C${i} {`,
      '  run(): number {',
      `    return new C${deps[0]}().run() + f${i}(1);`,
      '  }',
      '}',
      'function helper(x: number): number {',
      `  return x * ${i};`,
      '}',
      '',
    ].join('\n');
  }
  for (let i = 0; i < RB_FILES; i++) {
    const deps = [(i + 1) % RB_FILES, (i * 5 + 2) % RB_FILES];
    files[`rb/r${i}.rb`] = [
      `def rb${i}(x)`,
      `  ${deps.map((d) => `rb${d}(x)`).join(' + ')} + shared(x)`,
      'end',
      '',
      'def shared(x)',
      '  x',
      'end',
      '',
      `class K${i}`,
      '  def go',
      `    rb${i}(1)`,
      '  end',
      'end',
      '',
    ].join('\n');
  }
  return files;
}

/** The export of a repository as sorted lines (the order of equal-keyed lines is not part of it). */
async function exportLines(root: string): Promise<string[]> {
  const r = await travsr(['graph', 'export', root], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

/** The export of a fresh index of the committed tree, in a directory of its own. */
async function freshExport(repo: GitRepo): Promise<string[]> {
  const tree = repo.exportTree();
  try {
    const init = await travsr(['init', tree, '--no-hook'], { env: ENV, timeoutMs: 240_000 });
    expect(init.code, init.stderr).toBe(0);
    return await exportLines(tree);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

/** What the killed run had stored: files written since it started, by phase, and the run state. */
interface KillState {
  writtenByPhase: Record<string, number>;
  typescriptPhaseB: number;
  /** Files the run left unfinished (its pending mark). */
  pendingFiles: number;
  indexState: string | undefined;
}

function readState(db: Database.Database, since: number): KillState {
  const rows = db.prepare('SELECT phase, count(*) AS n FROM files WHERE last_indexed_at >= ? GROUP BY phase').all(since) as {
    phase: string | null;
    n: number;
  }[];
  const typescriptPhaseB = (
    db.prepare("SELECT count(*) AS n FROM files WHERE last_indexed_at >= ? AND phase = 'B' AND language = 'typescript'").get(since) as {
      n: number;
    }
  ).n;
  const meta = db.prepare("SELECT value FROM meta WHERE key = 'index_state'").get() as { value: string } | undefined;
  const pendingFiles = (db.prepare('SELECT count(*) AS n FROM files WHERE pending_run IS NOT NULL').get() as { n: number }).n;
  return {
    writtenByPhase: Object.fromEntries(rows.map((r) => [r.phase ?? 'none', r.n])),
    typescriptPhaseB,
    pendingFiles,
    indexState: meta?.value,
  };
}

/**
 * Runs `travsr <args>` and SIGKILLs it once `reached` holds for the database. No clock decides
 * where it dies: the database is polled until the point is reached, then the write lock of the
 * database is taken, so the child cannot store anything more, and the state read under that
 * lock is exactly the state it is killed in.
 */
async function killWhen(root: string, args: string[], reached: (s: KillState) => boolean): Promise<KillState> {
  const dbPath = join(root, '.travsr', 'graph.db');
  const since = Date.now();
  const child = execa(process.execPath, [BIN, ...args], {
    env: { ...ENV, TRAVSR_HOME: process.env.TRAVSR_HOME! },
    reject: false,
    stdin: 'ignore',
  });
  let exited = false;
  void child.finally(() => (exited = true));
  // The state is read under the write lock and the process killed before letting go of it: the
  // run cannot commit past the state the test saw, however loaded the machine (a read, then a
  // lock, let a fast run finish in between).
  // No busy timeout: SQLite's own wait backs off up to 100 ms between tries, time in which the
  // run can store its last batches and complete; the lock is asked for again at once instead.
  const writer = new Database(dbPath, { fileMustExist: true });
  writer.pragma('busy_timeout = 0');
  const lock = async () => {
    for (;;) {
      try {
        writer.exec('BEGIN IMMEDIATE');
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
        await new Promise((r) => setImmediate(r));
      }
    }
  };
  try {
    for (;;) {
      await lock();
      const state = readState(writer, since);
      if (reached(state)) {
        try {
          child.kill('SIGKILL');
          const result = await child;
          expect(result.signal).toBe('SIGKILL');
          return state;
        } finally {
          writer.exec('ROLLBACK');
        }
      }
      writer.exec('ROLLBACK');
      if (exited) throw new Error(`travsr ${args.join(' ')} finished before the kill point: ${String((await child).stderr)}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    writer.close();
  }
}

interface StatusJson {
  interrupted: boolean;
  complete: boolean;
}

/** `travsr status` in text and JSON: both must say the same thing. */
async function status(root: string): Promise<{ json: StatusJson; text: string }> {
  const json = await travsr(['status', root, '--json'], { env: ENV });
  expect(json.code, json.stderr).toBe(0);
  const text = await travsr(['status', root], { env: ENV });
  expect(text.code, text.stderr).toBe(0);
  return { json: JSON.parse(json.stdout) as StatusJson, text: text.stdout };
}

let repo: GitRepo;
let fresh: string[];
beforeAll(async () => {
  repo = new GitRepo('travsr-interrupted-');
  repo.write(generatedRepository()).commit('generated');
  const init = await travsr(['init', repo.root, '--no-hook'], { env: ENV, timeoutMs: 240_000 });
  expect(init.code, init.stderr).toBe(0);
  fresh = await freshExport(repo);
  expect(await exportLines(repo.root)).toEqual(fresh);
}, 600_000);
afterAll(() => repo?.dispose());

describe('finding 3: kill -9 during `travsr index` leaves a graph the next run never repairs', () => {
  it('index --rebuild killed at its first stored files (Phase A): status flags it and the next `travsr index` completes the graph', async () => {
    const killed = await killWhen(repo.root, ['index', repo.root, '--rebuild'], (s) => (s.writtenByPhase.A ?? 0) > 0);
    // Killed before its last step, whatever the child did between the poll and the lock.
    expect(killed.indexState).toBe('running');

    const before = await status(repo.root);
    expect(before.json).toMatchObject({ interrupted: true, complete: false });
    expect(before.text).toMatch(/interrupted.*travsr index/);

    const again = await travsr(['index', repo.root, '--json'], { env: ENV, timeoutMs: 240_000 });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { analyzed: number }).analyzed).toBeGreaterThan(0);
    expect(await exportLines(repo.root)).toEqual(fresh);
    expect((await status(repo.root)).json).toMatchObject({ interrupted: false, complete: true });
  }, 600_000);

  it('index --rebuild killed once Phase B results are stored: status flags it and the next `travsr index` completes the graph', async () => {
    // Phase B (or name matching, if Phase B streamed to the end before the lock) is unfinished.
    const killed = await killWhen(repo.root, ['index', repo.root, '--rebuild'], (s) => s.typescriptPhaseB > 0);
    expect(killed.indexState).toBe('running');
    expect(killed.typescriptPhaseB).toBeGreaterThan(0);

    const before = await status(repo.root);
    expect(before.json).toMatchObject({ interrupted: true, complete: false });
    expect(before.text).toMatch(/interrupted.*travsr index/);

    // When Phase B streamed its last file before the kill landed, nothing is pending: the next
    // run analyzes no file and only redoes name matching (as for hook-run below).
    expect(before.json).toMatchObject({ indexRun: { pendingFiles: killed.pendingFiles } });
    const again = await travsr(['index', repo.root, '--json'], { env: ENV, timeoutMs: 240_000 });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { analyzed: number }).analyzed).toBeGreaterThanOrEqual(killed.pendingFiles);
    expect(await exportLines(repo.root)).toEqual(fresh);
    expect((await status(repo.root)).json).toMatchObject({ interrupted: false, complete: true });
  }, 600_000);

  it('hook-run killed after a commit: status flags it and the next hook-run completes the graph', async () => {
    // Rename a function called from two files the commit does not touch (their compiler-resolved
    // calls must be redone) and a Ruby function other files call by name; edit 30 more files.
    const edits: Record<string, string> = {};
    const source = generatedRepository();
    edits['src/m5.ts'] = source['src/m5.ts']!.replaceAll('f5(', 'renamedF5(');
    edits['rb/r3.rb'] = source['rb/r3.rb']!.replaceAll('rb3(', 'renamed_rb3(');
    for (let i = 100; i < 130; i++) edits[`src/m${i}.ts`] = `${source[`src/m${i}.ts`]!}export const extra${i} = f${i}(2);\n`;
    repo.write(edits).commit('rename and edit');

    const killed = await killWhen(repo.root, ['hook-run', repo.root], (s) => Object.keys(s.writtenByPhase).length > 0);
    expect(killed.indexState).toBe('running');

    const before = await status(repo.root);
    expect(before.json).toMatchObject({ interrupted: true, complete: false });
    expect(before.text).toMatch(/interrupted.*travsr index/);

    // On a busy machine the kill may land after the last file was stored (during name
    // matching): then nothing is pending and the next run only redoes name matching.
    expect(before.json).toMatchObject({ indexRun: { pendingFiles: killed.pendingFiles } });
    const again = await travsr(['hook-run', repo.root, '--json'], { env: ENV, timeoutMs: 240_000 });
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { analyzed: number }).analyzed).toBeGreaterThanOrEqual(killed.pendingFiles);
    expect(await exportLines(repo.root)).toEqual(await freshExport(repo));
    expect((await status(repo.root)).json).toMatchObject({ interrupted: false, complete: true });
  }, 600_000);
});
