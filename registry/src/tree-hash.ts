import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { TravsrError } from '@travsr/protocol';

/**
 * Error raised when a plugin directory cannot be hashed or does not match its recorded hash.
 *
 * @example
 * ```ts
 * await verifyTreeHash(dir, recorded).catch((e) => errorCode(e) === 'TREE_HASH_MISMATCH');
 * ```
 */
export class TreeHashError extends TravsrError {
  override readonly name = 'TreeHashError';
  constructor(
    readonly code: 'TREE_UNREADABLE' | 'TREE_HASH_MISMATCH' | 'TREE_UNSUPPORTED_ENTRY',
    message: string,
  ) {
    super(message);
  }
}

/** One entry of a hashed tree. */
export interface TreeEntry {
  path: string;
  type: 'file' | 'exec' | 'symlink';
  sha256: string;
}

/**
 * Lists a directory the way {@link treeHash} sees it: regular files (executable or not)
 * and symlinks, with `/`-separated relative paths in byte order. Directories contribute
 * only through their contents; sockets, FIFOs and devices are refused.
 *
 * @example
 * ```ts
 * (await treeEntries(dir)).map((e) => `${e.type} ${e.path}`); // ['file dist/main.js', 'file travsr-plugin.json']
 * ```
 */
export async function treeEntries(dir: string, digests: FileDigests = processDigests): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  const seen = new Set<string>();
  const hashed: Promise<void>[] = [];
  // The tree is walked with synchronous calls (a plugin has tens to a few hundred entries: well
  // under a millisecond, where a promise per readdir and lstat took 5-15 ms before a plugin
  // session could launch); the files whose digest is not memoized are read asynchronously.
  function walk(at: string): void {
    let names: string[];
    try {
      names = readdirSync(at);
    } catch (e) {
      throw new TreeHashError('TREE_UNREADABLE', `cannot read ${at}: ${(e as Error).message}`);
    }
    for (const name of names) {
      const full = join(at, name);
      const st = lstatSync(full);
      const rel = relative(dir, full).split(sep).join('/');
      if (st.isDirectory()) walk(full);
      else if (st.isSymbolicLink()) {
        out.push({ path: rel, type: 'symlink', sha256: sha256(Buffer.from(readlinkSync(full))) });
      } else if (st.isFile()) {
        seen.add(full);
        const known = digests.recorded(full, st);
        const entry: TreeEntry = { path: rel, type: st.mode & 0o111 ? 'exec' : 'file', sha256: known ?? '' };
        out.push(entry);
        if (known === undefined)
          hashed.push(
            digests.of(full, st).then((digest) => {
              entry.sha256 = digest;
            }),
          );
      } else {
        throw new TreeHashError('TREE_UNSUPPORTED_ENTRY', `${rel} is not a regular file, directory or symlink`);
      }
    }
  }
  walk(dir);
  await Promise.all(hashed);
  digests.keepOnly(dir, seen);
  return out.sort(byPath);
}

/**
 * SHA-256 of files by path, each with the file's device, inode, size, mtime and ctime when it
 * was read. A file whose stat is unchanged is not read again: an index run verifies a plugin
 * directory that `travsr init` hashed a moment before, and a memo saved between processes
 * ({@link toJSON} / {@link FileDigests.from}) spares every command the read. The ctime is what
 * makes this safe: any write or metadata change sets it, and no user can set it back.
 *
 * @example
 * ```ts
 * const digests = FileDigests.from(JSON.parse(saved));
 * await treeHash(dir, digests);
 * if (digests.changed) save(JSON.stringify(digests));
 * ```
 */
export class FileDigests {
  private readonly byPath = new Map<string, { stat: string; sha256: string }>();
  /** Set when a digest was added or replaced since the memo was made. */
  changed = false;

  /** A memo from what {@link toJSON} gave (entries that are not well-formed are left out). */
  static from(saved: unknown): FileDigests {
    const memo = new FileDigests();
    if (saved && typeof saved === 'object' && !Array.isArray(saved))
      for (const [path, e] of Object.entries(saved as Record<string, unknown>)) {
        const { stat, sha256 } = (e ?? {}) as Record<string, unknown>;
        if (typeof stat === 'string' && typeof sha256 === 'string' && /^[0-9a-f]{64}$/.test(sha256))
          memo.byPath.set(path, { stat, sha256 });
      }
    return memo;
  }

  /** The digest of the file at `path`, read only when its stat is not the one recorded. */
  async of(path: string, st: Stats): Promise<string> {
    const known = this.recorded(path, st);
    if (known !== undefined) return known;
    const digest = sha256(await readFile(path));
    this.byPath.set(path, { stat: statKey(st), sha256: digest });
    this.changed = true;
    return digest;
  }

  /** The digest recorded for the file at `path` with exactly this stat; undefined when it must be read ({@link of}). */
  recorded(path: string, st: Stats): string | undefined {
    const known = this.byPath.get(path);
    return known?.stat === statKey(st) ? known.sha256 : undefined;
  }

  /** Forgets the files under `dir` that the last hash of it did not see (removed from the tree). */
  keepOnly(dir: string, seen: ReadonlySet<string>): void {
    const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
    for (const path of this.byPath.keys())
      if (path.startsWith(prefix) && !seen.has(path)) {
        this.byPath.delete(path);
        this.changed = true;
      }
  }

  toJSON(): Record<string, { stat: string; sha256: string }> {
    return Object.fromEntries(this.byPath);
  }
}

/** What a memoized digest is valid for: the file's device, inode, size, mtime and ctime. */
function statKey(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** The memo of this process, used when a caller passes none. */
const processDigests = new FileDigests();

/**
 * The tree hash of a directory: `sha256:` + SHA-256 over one line per entry,
 * `<type> <sha256> <path>\n`, in path order. Any edit, addition, removal, rename or mode
 * change of a file changes it.
 *
 * @example
 * ```ts
 * const h = await treeHash('/home/me/.travsr/plugins/lang-go/0.1.0'); // 'sha256:…'
 * ```
 */
export async function treeHash(dir: string, digests?: FileDigests): Promise<string> {
  return treeHashOf(await treeEntries(dir, digests));
}

/**
 * The tree hash of a list of entries (sorted here by path), for a tree that is not on disk
 * as such — the files `packPlugin` selects from a plugin directory, say.
 *
 * @example
 * ```ts
 * treeHashOf([{ path: 'travsr-plugin.json', type: 'file', sha256: 'e3b0…' }]); // 'sha256:…'
 * ```
 */
export function treeHashOf(entries: readonly TreeEntry[]): string {
  const h = createHash('sha256');
  for (const e of [...entries].sort(byPath)) h.update(`${e.type} ${e.sha256} ${e.path}\n`);
  return `sha256:${h.digest('hex')}`;
}

/**
 * The order of {@link treeEntries}: by path, comparing code units.
 *
 * @example
 * ```ts
 * entries.sort(byPath);
 * ```
 */
export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * Checks a directory against its recorded tree hash.
 * @throws TreeHashError `TREE_HASH_MISMATCH` naming the directory and both hashes.
 * @example
 * ```ts
 * await verifyTreeHash(pluginDir, lock.treeHash); // before every launch
 * ```
 */
export async function verifyTreeHash(dir: string, expected: string, digests?: FileDigests): Promise<void> {
  const actual = await treeHash(dir, digests);
  if (actual !== expected) {
    throw new TreeHashError(
      'TREE_HASH_MISMATCH',
      `plugin files in ${dir} changed since they were installed (tree hash ${actual}, expected ${expected}); reinstall the plugin with \`travsr lang install\`; after updating Travsr, \`travsr init\` registers its first-party plugins again`,
    );
  }
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
