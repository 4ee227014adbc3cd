import { constants, fstatSync, openSync, readSync } from 'node:fs';
import { classifyName, classifyPrefix, PREFIX_BYTES } from './content-checks.js';
import { describeSystemError } from './errors.js';
import { closeQuietly, NON_BLOCK } from './file-descriptors.js';
import type { WalkEntry } from './walk-entry.js';
import { SkipReason } from './walk-entry.js';

/** `O_NOFOLLOW` where the platform has it: a file swapped for a link mid-walk is not read through. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Stats a file and reads at most {@link PREFIX_BYTES} of it to decide whether it is indexed.
 * Never throws: a failure is an `unreadable` entry.
 *
 * Synchronous on purpose: open, fstat, one read and close of a local file take microseconds,
 * while as asynchronous calls each is a thread-pool round trip; the walk of a 859-file
 * repository took ~550 ms that way and ~50 ms this way (with its directory listings, see
 * walker.ts).
 */
export function inspectFile(
  path: string,
  absPath: string,
  options: {
    maxFileBytes: number;
    throughLink: boolean;
    /** Scratch space of {@link PREFIX_BYTES} bytes, reused across calls; nothing refers to it after the call. */
    buffer: Buffer;
  },
): WalkEntry {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const byName = classifyName(name);
  if (byName) return { kind: 'skipped', path, reason: byName.reason, detail: byName.detail };
  let fd: number | undefined;
  try {
    fd = openSync(absPath, constants.O_RDONLY | NON_BLOCK | (options.throughLink ? 0 : NO_FOLLOW));
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'skipped', path, reason: SkipReason.Unreadable, detail: 'not a regular file' };
    if (stat.size > options.maxFileBytes) {
      return {
        kind: 'skipped',
        path,
        reason: SkipReason.TooLarge,
        detail: `${stat.size} bytes is over the ${options.maxFileBytes}-byte limit (maxFileBytes)`,
      };
    }
    if (stat.size > 0) {
      const prefix = options.buffer.subarray(0, Math.min(stat.size, PREFIX_BYTES));
      let filled = 0;
      while (filled < prefix.length) {
        const bytesRead = readSync(fd, prefix, filled, prefix.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      const byContent = classifyPrefix(name, prefix.subarray(0, filled));
      if (byContent) return { kind: 'skipped', path, reason: byContent.reason, detail: byContent.detail };
    }
    return { kind: 'file', path, size: stat.size };
  } catch (e) {
    return { kind: 'skipped', path, reason: SkipReason.Unreadable, detail: describeSystemError(e) };
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}
