import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TravsrError } from '@travsr/protocol';
import { processAlive } from '../paths/process-alive.js';

/** Error when another index run holds the repository's lock for too long. */
export class IndexLockError extends TravsrError {
  override readonly name = 'IndexLockError';
  readonly code = 'INDEX_LOCKED';
}

/**
 * Takes `.travsr/index.lock` so two index runs (two quick commits, or a commit during
 * `travsr index`) never write the same graph at once. A lock left by a process that no
 * longer exists is taken over. Waits up to `waitMs`, then fails with INDEX_LOCKED.
 * Returns the release function.
 */
export async function acquireIndexLock(travsrDir: string, waitMs = 60_000): Promise<() => void> {
  const path = join(travsrDir, 'index.lock');
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number.parseInt(safeRead(path), 10);
    if (!Number.isInteger(holder) || !processAlive(holder)) {
      try {
        unlinkSync(path);
      } catch {
        // someone else took it over first
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new IndexLockError(
        `another index run (pid ${holder}) is working on this repository; wait for it to finish, or remove ${path} if that process is gone`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The pid of the live process holding `.travsr/index.lock` in `travsrDir`, or undefined when
 * no index run is in progress (no lock, or one left by a process that is gone).
 */
export function indexLockHolder(travsrDir: string): number | undefined {
  const holder = Number.parseInt(safeRead(join(travsrDir, 'index.lock')), 10);
  return Number.isInteger(holder) && processAlive(holder) ? holder : undefined;
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
