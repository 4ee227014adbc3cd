import { readlinkSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';

/** What a symbolic link found in the walk turns into. */
export type LinkOutcome =
  { follow: 'directory'; realPath: string } | { follow: 'file' } | { follow: false; targetIsDirectory: boolean; detail: string };

/**
 * Decides whether the walk goes through a symbolic link. Without `followSymlinks` nothing is
 * followed. With it, a link is followed only when its target exists, lies inside the root
 * (by real path, so chains of links cannot escape), is not under `.git/` or `.travsr/`, and —
 * for a directory — is not one of the directories the walk is already inside (a loop).
 * Synchronous, like the rest of the walk (see walker.ts).
 */
export function resolveLink(
  absPath: string,
  context: { rootReal: string; followSymlinks: boolean; ancestors: readonly string[] },
): LinkOutcome {
  const target = attempt(() => readlinkSync(absPath)) ?? '?';
  const targetStat = attempt(() => statSync(absPath));
  const isDirectory = targetStat?.isDirectory() ?? false;
  if (!context.followSymlinks) {
    const what = targetStat === undefined ? 'broken' : isDirectory ? 'a directory' : 'a file';
    return {
      follow: false,
      targetIsDirectory: isDirectory,
      detail: `symbolic link to ${target} (${what}), not followed; set followSymlinks to follow links that stay inside the repository`,
    };
  }
  const real = attempt(() => realpathSync.native(absPath));
  if (real === undefined || targetStat === undefined) {
    return { follow: false, targetIsDirectory: false, detail: `broken symbolic link to ${target}` };
  }
  const inside = relative(context.rootReal, real);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    return {
      follow: false,
      targetIsDirectory: isDirectory,
      detail: `symbolic link to ${target} points outside the repository (${real}), never followed`,
    };
  }
  const segments = inside.split(sep);
  if (segments.includes('.git') || segments[0] === '.travsr') {
    return {
      follow: false,
      targetIsDirectory: isDirectory,
      detail: `symbolic link to ${target} points into ${segments.join('/')}, which is never indexed`,
    };
  }
  if (isDirectory) {
    if (context.ancestors.includes(real)) {
      return {
        follow: false,
        targetIsDirectory: true,
        detail: `symbolic link to ${target} loops back to ${inside === '' ? 'the root' : segments.join('/')}, which the walk is already inside`,
      };
    }
    return { follow: 'directory', realPath: real };
  }
  return { follow: 'file' };
}

/** What `read` returns, or undefined when it throws (a broken link, a vanished file). */
function attempt<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
