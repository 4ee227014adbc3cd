import { createHash } from 'node:crypto';
import { constants, fstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { describeSystemError, WalkError, WalkErrorCode } from './errors.js';
import { closeQuietly, NON_BLOCK } from './file-descriptors.js';

/** Content hash and size of one file. */
export interface FileHash {
  /** Lower-case hex SHA-256 of the content, as `sha256sum` prints it. */
  sha256: string;
  /** Bytes hashed. */
  size: number;
  /** Lines: the `\n` count, plus one when the last line has no `\n` (`wc -l` counts only the former). */
  lines: number;
}

/** One result of {@link hashFiles}: the hash, or why that file could not be hashed. */
export type HashOutcome = ({ path: string; ok: true } & FileHash) | { path: string; ok: false; error: WalkError };

const CHUNK_BYTES = 256 * 1024;
/** Where every file is read (the reads are synchronous: one hash at a time uses it). */
const chunk = Buffer.allocUnsafe(CHUNK_BYTES);

/**
 * Hashes a file by streaming it through SHA-256 in 256 KiB chunks (never whole in memory),
 * counting newlines on the way. Throws `FILE_HASH_FAILED` (with the system error as `cause`)
 * when the file is gone, unreadable or not a regular file.
 *
 * The reads are synchronous calls (as in the walk, see file-inspection.ts): a promise for the
 * caller, but no thread-pool round trip per read.
 *
 * @example
 * const { sha256, size, lines } = await hashFile('/repo/src/main.lua');
 */
export function hashFile(absPath: string): Promise<FileHash> {
  try {
    return Promise.resolve(hashFileSync(absPath));
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

/** {@link hashFile}, synchronously. */
export function hashFileSync(absPath: string): FileHash {
  let fd: number | undefined;
  try {
    fd = openSync(absPath, constants.O_RDONLY | NON_BLOCK);
    if (!fstatSync(fd).isFile()) {
      throw new WalkError(
        WalkErrorCode.HashFailed,
        `Cannot hash ${absPath}: it is not a regular file. Only files the walk yields can be hashed.`,
      );
    }
    const hash = createHash('sha256');
    let size = 0;
    let newlines = 0;
    let last = -1;
    for (;;) {
      const bytesRead = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const view = chunk.subarray(0, bytesRead);
      hash.update(view);
      for (let at = view.indexOf(10); at !== -1; at = view.indexOf(10, at + 1)) newlines++;
      size += bytesRead;
      last = view[bytesRead - 1]!;
    }
    return { sha256: hash.digest('hex'), size, lines: newlines + (size > 0 && last !== 10 ? 1 : 0) };
  } catch (e) {
    if (e instanceof WalkError) throw e;
    throw new WalkError(
      WalkErrorCode.HashFailed,
      `Cannot hash ${absPath}: ${describeSystemError(e)}. It may have changed during the walk; index again.`,
      {
        cause: e,
      },
    );
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/**
 * Hashes repo-relative paths under `root`, at most `concurrency` (default 8) at a time.
 * Resolves to one outcome per path, in the order given; a file that fails is an outcome
 * with `ok: false` (`FILE_HASH_FAILED`, or `WALK_PATH_OUTSIDE_ROOT` for an absolute path or
 * one with a `..` segment), never a rejection. Throws `WALK_INVALID_OPTION` for a bad
 * `concurrency`.
 *
 * @example
 * for (const h of await hashFiles('/repo', ['a.lua', 'b.lua'], { concurrency: 4 })) {
 *   if (h.ok) store(h.path, h.sha256); else report(h.path, h.error.message);
 * }
 */
export async function hashFiles(root: string, paths: readonly string[], options: { concurrency?: number } = {}): Promise<HashOutcome[]> {
  const concurrency = options.concurrency ?? 8;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    throw new WalkError(WalkErrorCode.InvalidOption, `concurrency must be a whole number, 1 or more; got ${String(concurrency)}.`);
  }
  const results = new Array<HashOutcome>(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const index = next++;
      const path = paths[index]!;
      results[index] = await hashOne(root, path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, paths.length) }, worker));
  return results;
}

async function hashOne(root: string, path: string): Promise<HashOutcome> {
  if (path === '' || isAbsolute(path) || path.split(/[\\/]/).includes('..')) {
    const error = new WalkError(
      WalkErrorCode.PathOutsideRoot,
      `Refusing to hash ${JSON.stringify(path)}: paths must be relative to the repository root, without "..".`,
    );
    return { path, ok: false, error };
  }
  try {
    return { path, ok: true, ...(await hashFile(join(root, path))) };
  } catch (e) {
    return { path, ok: false, error: e as WalkError };
  }
}
