// RepoFileReader on real files, links and FIFOs in a temporary directory.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, linkSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { opensPath, RepoFileReader, splitRepoPath } from '../../src/retrieval/repo-file-reader.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const SOURCE = 'export function gammaFn() {\n  return 1;\n}\n';
const SECRET = '-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n';

let base: string;
let repo: string;
let outside: string;
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'travsr-repo-reader-'));
  repo = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(join(repo, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(repo, 'src', 'g.ts'), SOURCE);
  writeFileSync(join(outside, 'id_rsa'), SECRET);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const read = (path: string, indexed: string | undefined = sha(SOURCE), opts = {}) => new RepoFileReader(repo, opts).read(path, indexed);

describe('RepoFileReader', () => {
  it('reads an unchanged regular file, not marked changed', () => {
    const r = read('src/g.ts');
    expect(r).toMatchObject({ ok: true, sha256: sha(SOURCE), changed: false });
    expect(r.ok && r.bytes.toString()).toBe(SOURCE);
  });

  it('refuses a file replaced by a link to a file outside the repository', () => {
    rmSync(join(repo, 'src', 'g.ts'));
    symlinkSync(join(outside, 'id_rsa'), join(repo, 'src', 'g.ts'));
    expect(read('src/g.ts')).toMatchObject({ ok: false, refusal: 'SYMLINK' });
  });

  it('refuses a link even when it points inside the repository (the indexer skips links)', () => {
    writeFileSync(join(repo, 'src', 'real.ts'), SOURCE);
    rmSync(join(repo, 'src', 'g.ts'));
    symlinkSync('real.ts', join(repo, 'src', 'g.ts'));
    expect(read('src/g.ts')).toMatchObject({ ok: false, refusal: 'SYMLINK' });
  });

  it('refuses a path through a linked directory', () => {
    rmSync(join(repo, 'src'), { recursive: true });
    writeFileSync(join(outside, 'g.ts'), SECRET);
    symlinkSync(outside, join(repo, 'src'));
    expect(read('src/g.ts')).toMatchObject({ ok: false, refusal: 'SYMLINK' });
  });

  it('refuses a FIFO without waiting for a writer', () => {
    rmSync(join(repo, 'src', 'g.ts'));
    execFileSync('mkfifo', [join(repo, 'src', 'g.ts')]);
    expect(read('src/g.ts')).toMatchObject({ ok: false, refusal: 'NOT_REGULAR_FILE' });
  });

  it('refuses a directory', () => {
    expect(read('src')).toMatchObject({ ok: false, refusal: 'NOT_REGULAR_FILE' });
  });

  it.each([
    '../outside/id_rsa',
    'src/../../outside/id_rsa',
    '/etc/passwd',
    join(tmpdir(), 'id_rsa'),
    'src/./g.ts',
    'src//g.ts',
    '',
    'src/g.ts\0x',
  ])('refuses %j as not a path inside the repository', (path) => {
    expect(read(path)).toMatchObject({ ok: false, refusal: 'INVALID_PATH' });
  });

  it.each(['.travsr/graph.db', 'src/.git/config', '.git/HEAD'])('refuses %j, under .travsr/ or .git/, before opening it', (path) => {
    mkdirSync(join(repo, dirname(path)), { recursive: true });
    writeFileSync(join(repo, path), 'SQLite format 3\0');
    expect(read(path)).toMatchObject({ ok: false, refusal: 'INTERNAL_PATH' });
  });

  it('marks a file whose content changed (same size) as changed', () => {
    const edited = SOURCE.replace('1', '2');
    writeFileSync(join(repo, 'src', 'g.ts'), edited);
    const r = read('src/g.ts');
    expect(r).toMatchObject({ ok: true, changed: true, sha256: sha(edited) });
  });

  it('marks a file whose size changed as changed', () => {
    writeFileSync(join(repo, 'src', 'g.ts'), `${SOURCE}// more\n`);
    expect(read('src/g.ts')).toMatchObject({ ok: true, changed: true });
  });

  it('marks a file with no indexed hash as changed', () => {
    expect(new RepoFileReader(repo).read('src/g.ts', undefined)).toMatchObject({ ok: true, changed: true });
  });

  it('refuses a changed file with several hard links (it could be any file of the user)', () => {
    rmSync(join(repo, 'src', 'g.ts'));
    linkSync(join(outside, 'id_rsa'), join(repo, 'src', 'g.ts'));
    expect(read('src/g.ts')).toMatchObject({ ok: false, refusal: 'CHANGED_HARD_LINK' });
  });

  it('refuses a file above the size cap', () => {
    expect(read('src/g.ts', sha(SOURCE), { maxBytes: 10 })).toMatchObject({ ok: false, refusal: 'TOO_LARGE' });
  });

  it('says NOT_FOUND for a deleted file', () => {
    rmSync(join(repo, 'src', 'g.ts'));
    expect(read('src/g.ts')).toMatchObject({ ok: false, refusal: 'NOT_FOUND' });
  });

  it('reads through a repository root that is itself reached by a link', () => {
    symlinkSync(repo, join(base, 'alias'));
    expect(new RepoFileReader(join(base, 'alias')).read('src/g.ts', sha(SOURCE))).toMatchObject({ ok: true, changed: false });
  });
});

describe('opensPath (the check after the open that catches a link swapped in)', () => {
  it('accepts a descriptor of the file the path names', () => {
    const fd = openSync(join(repo, 'src', 'g.ts'), 'r');
    try {
      expect(opensPath(fd, fstatSync(fd), repo, ['src', 'g.ts'])).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  it('rejects a descriptor opened through a directory that was a link at the time of the open', () => {
    // The race: checks pass on the real `src`, then `src` becomes a link and the open follows it.
    writeFileSync(join(outside, 'g.ts'), SECRET);
    rmSync(join(repo, 'src'), { recursive: true });
    symlinkSync(outside, join(repo, 'src'));
    const fd = openSync(join(repo, 'src', 'g.ts'), 'r');
    try {
      // …and the link is put back to a real directory with a real g.ts before the check.
      rmSync(join(repo, 'src'));
      mkdirSync(join(repo, 'src'));
      writeFileSync(join(repo, 'src', 'g.ts'), SOURCE);
      expect(opensPath(fd, fstatSync(fd), repo, ['src', 'g.ts'])).toBe(false);
    } finally {
      closeSync(fd);
    }
  });
});

describe('splitRepoPath', () => {
  it('splits a stored path into its components', () => {
    expect(splitRepoPath('a/b c/d.ts')).toEqual(['a', 'b c', 'd.ts']);
  });
});
