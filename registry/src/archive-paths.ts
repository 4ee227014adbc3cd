/**
 * Path rules shared by the packer and the extractor, so that everything `packPlugin`
 * writes, `safeExtract` accepts.
 */

/** An archive path split into clean segments, or why it is refused. */
export type ArchivePathCheck = { ok: true; segments: string[] } | { ok: false; reason: string };

/**
 * Splits an archive path into segments, dropping empty and `.` segments. Refuses absolute
 * paths, drive letters, `..` segments, backslashes and control characters.
 *
 * @example
 * ```ts
 * checkArchivePath('package/./dist//main.js'); // { ok: true, segments: ['package', 'dist', 'main.js'] }
 * checkArchivePath('package/../../x'); // { ok: false, reason: 'has a ".." segment' }
 * ```
 */
export function checkArchivePath(raw: string): ArchivePathCheck {
  if (raw.startsWith('/')) return { ok: false, reason: 'is an absolute path' };
  if (/^[A-Za-z]:/.test(raw)) return { ok: false, reason: 'starts with a drive letter' };
  if (raw.includes('\\')) return { ok: false, reason: 'contains a backslash' };
  if (/[\0-\x1f\x7f]/.test(raw)) return { ok: false, reason: 'contains a control character' };
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { ok: false, reason: 'has a ".." segment' };
  return { ok: true, segments };
}

/**
 * The key under which a path is tracked: names that differ only in case or Unicode
 * normalization are the same file on macOS and Windows, so they are treated as one
 * everywhere (two of them in one archive is a conflict, not two files).
 *
 * @example
 * ```ts
 * pathKey(['dist', 'README']) === pathKey(['dist', 'readme']); // true
 * ```
 */
export function pathKey(segments: readonly string[]): string {
  return segments.join('/').normalize('NFC').toLowerCase();
}

const MAX_LINK_HOPS = 40;

/**
 * Resolves a symlink the way the kernel would, but over the archive's own symlinks
 * (`links`: {@link pathKey} → target), and returns the segments of the resolved path
 * relative to the root — or `undefined` when resolution leaves the root at any step, the
 * target is absolute, or the links loop. Segments that are not symlinks are taken as
 * directories, so `missing/../..` counts as escaping even though the kernel would stop
 * at `missing`.
 *
 * @param linkAt segments of the symlink itself
 * @param target its target, as stored in the archive
 * @example
 * ```ts
 * const links = new Map([['a/b/up', '../..']]);
 * resolveLink(links, ['a', 'b', 'up'], '../..'); // [] (the root)
 * resolveLink(links, ['a', 'b', 'x'], 'up/..'); // undefined: the root's parent
 * ```
 */
export function resolveLink(links: ReadonlyMap<string, string>, linkAt: readonly string[], target: string): string[] | undefined {
  const stack = linkAt.slice(0, -1);
  const queue: string[] = [];
  let hops = 0;
  const enqueue = (t: string): boolean => {
    if (t.startsWith('/') || /^[A-Za-z]:/.test(t) || t.includes('\\') || t.includes('\0')) return false;
    queue.unshift(...t.split('/'));
    return ++hops <= MAX_LINK_HOPS;
  };
  if (!enqueue(target)) return undefined;
  while (queue.length > 0) {
    const seg = queue.shift() ?? '';
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (stack.length === 0) return undefined;
      stack.pop();
      continue;
    }
    stack.push(seg);
    const next = links.get(pathKey(stack));
    if (next !== undefined) {
      stack.pop();
      if (!enqueue(next)) return undefined;
    }
  }
  return stack;
}
