// Issue 12, item 10: STORE_CORRUPT told users to run `travsr index --rebuild`, which opened the
// same damaged file and failed the same way; only deleting it helped. Now `--rebuild` moves an
// unusable database aside (never deletes it) and indexes from scratch, and says so.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const ENV = { TRAVSR_CORPUS: 'corrupt' };

let repo: GitRepo;
let db: string;
let exported: string[];

async function exportLines(root = repo.root): Promise<string[]> {
  const r = await travsr(['graph', 'export', root], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

/** The files moved aside in `.travsr/`. */
const setAside = () => readdirSync(join(repo.root, '.travsr')).filter((f) => f.startsWith('graph.db.corrupt-'));

/** `travsr index --rebuild` recovers: the damaged bytes are kept aside, the graph is whole again. */
async function rebuildRecovers(damaged: Buffer): Promise<void> {
  const r = await travsr(['index', repo.root, '--rebuild', '--json'], { env: ENV });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toMatch(/graph database could not be used \(STORE_CORRUPT: .*\): moved it aside to .*graph\.db\.corrupt-/);
  expect(r.stderr).toMatch(/traces .* stay in the moved file/);
  const summary = JSON.parse(r.stdout) as { analyzed: number; storeSetAside: { code: string; movedTo: string[] } };
  expect(summary.analyzed).toBe(2);
  expect(summary.storeSetAside.code).toBe('STORE_CORRUPT');
  const moved = setAside();
  expect(moved.filter((f) => !f.endsWith('-wal') && !f.endsWith('-shm'))).toHaveLength(1);
  expect(summary.storeSetAside.movedTo[0]).toBe(
    join(
      repo.root,
      '.travsr',
      moved.find((f) => !f.includes('-wal') && !f.includes('-shm'))!,
    ),
  );
  // Nothing lost: the moved file holds exactly the bytes that were there.
  expect(readFileSync(summary.storeSetAside.movedTo[0]!).equals(damaged)).toBe(true);
  const status = await travsr(['status', repo.root, '--json'], { env: ENV });
  expect(status.code, status.stderr).toBe(0);
  expect(JSON.parse(status.stdout)).toMatchObject({ complete: true, counts: { files: 2 } });
  expect(await exportLines()).toEqual(exported);
}

// One initialized repository, indexed once; each test damages a byte copy of it (cheaper than
// another `travsr init`, and the same files: the graph holds no absolute path).
let initialized: GitRepo;
beforeAll(async () => {
  initialized = new GitRepo('travsr-corrupt-');
  initialized
    .write({
      'src/a.ts': 'import { b } from "./b";\nexport function a() {\n  return b();\n}\n',
      'src/b.ts': 'export function b() {\n  return 1;\n}\n',
    })
    .commit('two files');
  const init = await travsr(['init', initialized.root, '--no-hook'], { env: ENV });
  expect(init.code, init.stderr).toBe(0);
  exported = await exportLines(initialized.root);
}, 180_000);
afterAll(() => initialized?.dispose());
beforeEach(() => {
  repo = new GitRepo('travsr-corrupt-', initialized);
  db = join(repo.root, '.travsr', 'graph.db');
});
afterEach(() => repo?.dispose());

describe('finding 10: STORE_CORRUPT suggests travsr index --rebuild, which fails the same way (only deleting the file works)', () => {
  it('garbage over the header: the error advises --rebuild, a plain index keeps the file, --rebuild moves it aside and rebuilds', async () => {
    overwrite(db, 0, Buffer.from('this is not an SQLite header, just garbage bytes!'));
    // A stale log next to it must go with it, never be replayed into the new database.
    writeFileSync(`${db}-wal`, randomBytes(4096));
    const damaged = readFileSync(db);

    const status = await travsr(['status', repo.root], { env: ENV });
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/\[STORE_CORRUPT\].*not a usable Travsr graph database.*run `travsr index --rebuild`.*moved aside/);

    const plain = await travsr(['index', repo.root], { env: ENV });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/\[STORE_CORRUPT\]/);
    expect(readFileSync(db).equals(damaged)).toBe(true);
    expect(setAside()).toEqual([]);

    await rebuildRecovers(damaged);
    expect(setAside().filter((f) => f.endsWith('-wal'))).toHaveLength(1);
  }, 180_000);

  it('a truncated file: --rebuild moves it aside and rebuilds', async () => {
    truncateSync(db, Math.floor(statSync(db).size / 2));
    await rebuildRecovers(readFileSync(db));
  }, 180_000);

  it('a damaged page inside a file that still opens: --rebuild finds it (quick_check), moves it aside and rebuilds', async () => {
    // The root page of the nodes table: a page quick_check reads, whatever else the file holds.
    const reader = new Database(db, { readonly: true, fileMustExist: true });
    const pageSize = reader.pragma('page_size', { simple: true }) as number;
    const root = (reader.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'nodes'").get() as { rootpage: number }).rootpage;
    reader.close();
    expect(existsSync(`${db}-wal`) && statSync(`${db}-wal`).size > 0).toBe(false);
    overwrite(db, (root - 1) * pageSize, randomBytes(pageSize));
    const damaged = readFileSync(db);
    await rebuildRecovers(damaged);
    expect(existsSync(db)).toBe(true);
  }, 180_000);
});
