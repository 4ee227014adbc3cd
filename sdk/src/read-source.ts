import { readFile, realpath, stat } from 'node:fs/promises';
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

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Reads a requested file below `root`. Refuses absolute paths and `..` escapes (the host
 * sends repository-relative paths; anything else is a bug or an attack) and files over
 * `maxBytes`, checked before reading.
 */
export async function readSourceFile(root: string, file: AnalyzeFile, maxBytes: number): Promise<SourceFile> {
  // Paths arrive `/`-separated. Only on Windows is `\` a separator too; on POSIX it is an
  // ordinary character of a file name (`back\slash.ts`) and must be kept.
  const normalized = sep === '\\' ? file.path.replace(/\\/g, '/') : file.path;
  const absolutePath = resolve(root, normalized);
  const rel = relative(root, absolutePath);
  if (isAbsolute(normalized) || rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new SourceReadError('PATH_OUTSIDE_ROOT', `"${file.path}" is not a path inside the repository root`);
  }
  let size: number;
  try {
    const [realRoot, realFile] = await Promise.all([realRootOf(root), realpath(absolutePath)]);
    const realRel = relative(realRoot, realFile);
    if (realRel === '' || realRel === '..' || realRel.startsWith(`..${sep}`) || isAbsolute(realRel)) {
      throw new SourceReadError('PATH_OUTSIDE_ROOT', `"${file.path}" is a link that leads outside the repository root`);
    }
    const info = await stat(realFile);
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
    bytes = await readFile(absolutePath);
  } catch (e) {
    throw new SourceReadError('FILE_UNREADABLE', `cannot read "${file.path}": ${describeFsError(e)}`);
  }
  return { path: file.path, language: file.language, absolutePath, bytes, text: decoder.decode(bytes) };
}

const realRoots = new Map<string, Promise<string>>();
function realRootOf(root: string): Promise<string> {
  let p = realRoots.get(root);
  if (!p) {
    p = realpath(root).catch(() => root);
    realRoots.set(root, p);
  }
  return p;
}

function describeFsError(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  if (err.code === 'ENOENT') return 'no such file';
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  if (err.code === 'EISDIR') return 'is a directory';
  return typeof err.message === 'string' ? err.message : String(e);
}
