import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { TravsrError, type AnalyzeFile } from '@travsr/protocol';
import type { SourceFile } from './definition.js';

/**
 * Why a file could not be handed to the analyzer.
 *
 * @example
 * ```ts
 * const code: SourceReadErrorCode = 'FILE_TOO_LARGE';
 * ```
 */
export type SourceReadErrorCode = 'FILE_UNREADABLE' | 'FILE_TOO_LARGE' | 'PATH_OUTSIDE_ROOT';

/**
 * A requested file that cannot be read; the harness reports the file `failed` with this code.
 *
 * @example
 * ```ts
 * try { await ctx.readFile(file); } catch (e) {
 *   if (errorCode(e) === 'FILE_UNREADABLE') skip(file);
 * }
 * ```
 */
export class SourceReadError extends TravsrError {
  override readonly name = 'SourceReadError';
  constructor(
    readonly code: SourceReadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** `O_NONBLOCK` where the platform has it. */
const NON_BLOCK = constants.O_NONBLOCK ?? 0;

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Reads a requested file below `root`. Refuses absolute paths and `..` escapes (the host
 * sends repository-relative paths; anything else is a bug or an attack) and files over
 * `maxBytes`, checked before reading.
 *
 * The reads are synchronous on purpose: a source file is small and local, and each
 * asynchronous fs call is a thread-pool round trip that, on a machine whose other core is
 * busy with the host, costs more than the read itself (six of them per file kept
 * lang-python's session on Django, 859 files, waiting 2.5 s in all). The analyzer has nothing
 * else to do meanwhile; the harness yields to the event loop between files for ping and
 * cancel frames.
 */
export function readSourceFile(root: string, file: AnalyzeFile, maxBytes: number): Promise<SourceFile> {
  try {
    return Promise.resolve(readSourceFileSync(root, file, maxBytes));
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)));
  }
}

/** {@link readSourceFile}, synchronously: realpath, open, fstat, read and close, nothing else. */
export function readSourceFileSync(root: string, file: AnalyzeFile, maxBytes: number): SourceFile {
  // Paths arrive `/`-separated. Only on Windows is `\` a separator too; on POSIX it is an
  // ordinary character of a file name (`back\slash.ts`) and must be kept.
  const normalized = sep === '\\' ? file.path.replace(/\\/g, '/') : file.path;
  const absolutePath = resolve(root, normalized);
  const rel = relative(root, absolutePath);
  if (isAbsolute(normalized) || rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new SourceReadError('PATH_OUTSIDE_ROOT', `"${file.path}" is not a path inside the repository root`);
  }
  let fd: number;
  let size: number;
  try {
    const realFile = realpathSync.native(absolutePath);
    const realRel = relative(realRootOf(root), realFile);
    if (realRel === '' || realRel === '..' || realRel.startsWith(`..${sep}`) || isAbsolute(realRel)) {
      throw new SourceReadError('PATH_OUTSIDE_ROOT', `"${file.path}" is a link that leads outside the repository root`);
    }
    // The checked path is the one opened, and the size is the opened file's. Non-blocking, so
    // that a FIFO is refused by the fstat below instead of waiting for a writer.
    fd = openSync(realFile, constants.O_RDONLY | NON_BLOCK);
  } catch (e) {
    if (e instanceof SourceReadError) throw e;
    throw new SourceReadError('FILE_UNREADABLE', `cannot read "${file.path}": ${describeFsError(e)}`);
  }
  try {
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw new SourceReadError('FILE_UNREADABLE', `"${file.path}" is not a regular file`);
      size = info.size;
    } catch (e) {
      if (e instanceof SourceReadError) throw e;
      throw new SourceReadError('FILE_UNREADABLE', `cannot read "${file.path}": ${describeFsError(e)}`);
    }
    if (size > maxBytes) {
      throw new SourceReadError(
        'FILE_TOO_LARGE',
        `"${file.path}" is ${size} bytes, over the analyzer's ${maxBytes}-byte limit; it was skipped`,
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = readWhole(fd, size, maxBytes, file.path);
    } catch (e) {
      if (e instanceof SourceReadError) throw e;
      throw new SourceReadError('FILE_UNREADABLE', `cannot read "${file.path}": ${describeFsError(e)}`);
    }
    return { path: file.path, language: file.language, absolutePath, bytes, text: decoder.decode(bytes) };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of an open file whose size was `size` at fstat: a file that shrank since is read to
 * where it ends, one that grew is read on up to `maxBytes` (past that it is too large).
 */
function readWhole(fd: number, size: number, maxBytes: number, path: string): Uint8Array {
  // One byte of room past the size, so that the read which finds the end needs no larger buffer.
  let buffer = Buffer.allocUnsafe(size + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) {
        throw new SourceReadError(
          'FILE_TOO_LARGE',
          `"${path}" grew past the analyzer's ${maxBytes}-byte limit while it was read; it was skipped`,
        );
      }
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

const realRoots = new Map<string, string>();
function realRootOf(root: string): string {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync.native(root);
    } catch {
      real = root;
    }
    realRoots.set(root, real);
  }
  return real;
}

function describeFsError(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  if (err.code === 'ENOENT') return 'no such file';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  return typeof err.message === 'string' ? err.message : String(e);
}
