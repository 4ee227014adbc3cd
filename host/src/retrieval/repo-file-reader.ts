import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from 'node:fs';
import { join, sep } from 'node:path';

/** Why {@link RepoFileReader.read} gave no content. */
export type RepoFileRefusal =
  /** Absolute, empty, `.`/`..` components, or a NUL byte: not a path inside the repository. */
  | 'INVALID_PATH'
  /**
   * Under `.travsr/` or a `.git/` directory: never indexed, never shown. (Opening and closing the
   * graph database with a plain descriptor would also drop this process's SQLite locks on it.)
   */
  | 'INTERNAL_PATH'
  /** The file or one of its directories does not exist (any more). */
  | 'NOT_FOUND'
  /** The file or one of its directories is a symbolic link; the indexer skips links, so do the tools. */
  | 'SYMLINK'
  /** A FIFO, socket, device or directory: reading it could hang or has no source to show. */
  | 'NOT_REGULAR_FILE'
  /** Larger than the reader's cap. */
  | 'TOO_LARGE'
  /** The path was swapped (a link put in place) between the checks and the open. */
  | 'PATH_CHANGED_WHILE_OPENING'
  /** The content changed since indexing and the file has other hard links: it may be any file on the disk. */
  | 'CHANGED_HARD_LINK'
  /** Permission denied or another I/O error. */
  | 'UNREADABLE';

/** What {@link RepoFileReader.read} returns. */
export type RepoFileRead =
  | {
      ok: true;
      bytes: Buffer;
      sha256: string;
      /** True when the content differs from the indexed sha256 (or none was given): the stored line ranges may be off. */
      changed: boolean;
    }
  | { ok: false; refusal: RepoFileRefusal; detail: string };

/** Options of {@link RepoFileReader}. */
export interface RepoFileReaderOptions {
  /** Files larger than this are refused. Default {@link DEFAULT_MAX_READ_BYTES}. */
  maxBytes?: number;
}

/**
 * The query-time read cap: well above the indexer's default 1 MiB file limit (files
 * larger than the index limit were never analyzed, so nothing points into them).
 */
export const DEFAULT_MAX_READ_BYTES = 8 * 1024 * 1024;

// O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (and hang the
// server); the fstat right after the open refuses it. Ignored for regular files.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * The one way query-time code reads repository files (snippets for `ask`, `get_context`,
 * `get_definition`). Repository content is untrusted: a pull can replace an indexed file
 * with a symbolic link to `~/.ssh/id_rsa`, a FIFO, or a huge file. So a read
 *
 * - takes a repository-relative path only (no absolute path, `..`, `.`, empty component or NUL);
 * - follows no symbolic link anywhere: every directory on the path is checked with lstat,
 *   the file is opened with O_NOFOLLOW, and after the open the descriptor is checked to be
 *   the file the path names now (on Linux by the kernel's own path of the descriptor), so
 *   a link swapped in between the checks and the open is caught;
 * - refuses anything but a regular file, and files above a size cap;
 * - hashes the content and compares it with the sha256 the file was indexed at.
 *
 * A changed file is returned marked `changed` (the caller shows it as stale), except when it
 * has several hard links: then it could be a link to any file of the user's, and is refused.
 */
export class RepoFileReader {
  private root: string | null | undefined;
  private readonly maxBytes: number;

  constructor(
    /** The repository root as configured (it may itself be reached through a link, e.g. /tmp on macOS). */
    private readonly repoRoot: string,
    opts: RepoFileReaderOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_READ_BYTES;
  }

  /**
   * Reads `path` (relative to the repository root, `/`-separated, as stored in the graph).
   * `indexedSha256` is the hash the file was indexed at; without it the content counts as changed.
   */
  read(path: string, indexedSha256: string | undefined): RepoFileRead {
    const parts = splitRepoPath(path);
    if (!parts) return refuse('INVALID_PATH', `${JSON.stringify(path)} is not a path inside the repository`);
    if (parts[0] === '.travsr' || parts.includes('.git'))
      return refuse('INTERNAL_PATH', `${path} is under .travsr/ or .git/, which are not part of the indexed sources`);
    const root = this.realRoot();
    if (root === null) return refuse('NOT_FOUND', `the repository root ${this.repoRoot} is not readable`);

    const dirs = checkDirectories(root, parts);
    if (dirs) return dirs;
    const full = join(root, ...parts);
    let before: Stats;
    try {
      before = lstatSync(full);
    } catch (e) {
      return fromErrno(e, path);
    }
    // Checked before opening: opening a device can have effects of its own.
    const kind = describeNonRegular(before);
    if (kind) return refuse(kind === 'symbolic link' ? 'SYMLINK' : 'NOT_REGULAR_FILE', `${path} is a ${kind}`);

    let fd: number;
    try {
      fd = openSync(full, OPEN_FLAGS);
    } catch (e) {
      return fromErrno(e, path);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return refuse('NOT_REGULAR_FILE', `${path} is not a regular file`);
      if (!opensPath(fd, st, root, parts)) return refuse('PATH_CHANGED_WHILE_OPENING', `${path} was replaced while it was being opened`);
      if (st.size > this.maxBytes) return refuse('TOO_LARGE', `${path} has ${st.size} bytes, more than ${this.maxBytes}`);
      const bytes = readUpTo(fd, this.maxBytes + 1);
      if (bytes.length > this.maxBytes) return refuse('TOO_LARGE', `${path} grew beyond ${this.maxBytes} bytes`);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const changed = sha256 !== indexedSha256;
      if (changed && st.nlink > 1)
        return refuse('CHANGED_HARD_LINK', `${path} changed since it was indexed and has ${st.nlink} hard links`);
      return { ok: true, bytes, sha256, changed };
    } catch (e) {
      return fromErrno(e, path);
    } finally {
      closeSync(fd);
    }
  }

  private realRoot(): string | null {
    if (this.root === undefined) {
      try {
        this.root = realpathSync(this.repoRoot);
      } catch {
        this.root = null;
      }
    }
    return this.root;
  }
}

/**
 * The components of a repository-relative path, or undefined when it could name
 * something outside the repository (or is not a path the indexer would store).
 */
export function splitRepoPath(path: string): string[] | undefined {
  if (path.length === 0 || path.includes('\0') || path.startsWith('/')) return undefined;
  const parts = path.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) return undefined;
  // On Windows `\` and drive letters are separators and roots too.
  if (sep === '\\' && parts.some((p) => p.includes('\\') || p.includes(':'))) return undefined;
  return parts;
}

/**
 * True when the open descriptor `fd` is the file `root/parts…` names now, reached through
 * real directories only. Exported for tests (a descriptor opened through a linked directory).
 */
export function opensPath(fd: number, st: Stats, root: string, parts: readonly string[]): boolean {
  const expected = join(root, ...parts);
  if (process.platform === 'linux') {
    // The kernel's path of the open file: it names the real directories the open walked,
    // whatever happened to the path since.
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === expected;
    } catch {
      // /proc not mounted: fall through to the portable check.
    }
  }
  // Portable: the directories are still real and the path still names the same inode.
  if (checkDirectories(root, parts)) return false;
  try {
    const now = lstatSync(expected);
    return now.isFile() && now.dev === st.dev && now.ino === st.ino;
  } catch {
    return false;
  }
}

/** Refuses when a directory on the way to the file is a link, missing, or not a directory. */
function checkDirectories(root: string, parts: readonly string[]): Extract<RepoFileRead, { ok: false }> | undefined {
  let dir = root;
  for (const name of parts.slice(0, -1)) {
    dir = join(dir, name);
    let st: Stats;
    try {
      st = lstatSync(dir);
    } catch (e) {
      return fromErrno(e, dir.slice(root.length + 1));
    }
    if (st.isSymbolicLink()) return refuse('SYMLINK', `the directory ${dir.slice(root.length + 1)} is a symbolic link`);
    if (!st.isDirectory()) return refuse('NOT_FOUND', `${dir.slice(root.length + 1)} is not a directory`);
  }
  return undefined;
}

function describeNonRegular(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isSymbolicLink()) return 'symbolic link';
  if (st.isFIFO()) return 'FIFO';
  if (st.isSocket()) return 'socket';
  if (st.isDirectory()) return 'directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'special file';
}

function readUpTo(fd: number, limit: number): Buffer {
  const buf = Buffer.alloc(Math.min(limit, 64 * 1024));
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, limit - total), null);
    if (n === 0) break;
    chunks.push(Buffer.from(buf.subarray(0, n)));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

function refuse(refusal: RepoFileRefusal, detail: string): Extract<RepoFileRead, { ok: false }> {
  return { ok: false, refusal, detail };
}

function fromErrno(e: unknown, path: string): Extract<RepoFileRead, { ok: false }> {
  const code = (e as NodeJS.ErrnoException).code;
  // ELOOP: O_NOFOLLOW met a link put in place after the lstat.
  if (code === 'ELOOP') return refuse('SYMLINK', `${path} is a symbolic link`);
  if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('NOT_FOUND', `${path} does not exist`);
  return refuse('UNREADABLE', `${path}: ${(e as Error).message}`);
}
