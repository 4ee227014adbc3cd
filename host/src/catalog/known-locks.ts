import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { travsrHome } from '../paths/travsr-home.js';
import { readPluginsLock } from './plugins-lock.js';

/**
 * The repository lock files (`.travsr/plugins.lock`) this installation has written or
 * indexed with, kept in `<TRAVSR_HOME>/known-locks.json`, so that deleting an installed
 * plugin version (`lang prune`, `lang remove`) spares what another repository on this
 * machine still runs. A lock file that is gone is forgotten when next read.
 */
function knownLocksFile(): string {
  return join(travsrHome(), 'known-locks.json');
}

function readKnown(): string[] {
  try {
    const v = JSON.parse(readFileSync(knownLocksFile(), 'utf8')) as unknown;
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return []; // none yet, or unreadable: then nothing is known, as before this file existed
  }
}

function writeKnown(paths: readonly string[]): void {
  const file = knownLocksFile();
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify([...paths].sort(), null, 2)}\n`);
  renameSync(tmp, file);
}

/** Remembers a repository's lock file (no write when it is already known). Never throws: a lost record only makes pruning less careful. */
export function rememberLock(lockPath: string): void {
  const path = resolve(lockPath);
  try {
    const known = readKnown();
    if (!known.includes(path)) writeKnown([...known, path]);
  } catch {
    // TRAVSR_HOME not writable: the index or install goes on.
  }
}

/**
 * `id@version` of every plugin version a known lock file other than `except` names, with the
 * lock files naming each. Lock files that no longer exist are forgotten; one that cannot be
 * parsed is kept, and named in `unreadable` (what it locks is unknown).
 */
export function versionsLockedElsewhere(except?: string): { locked: Map<string, string[]>; unreadable: string[] } {
  const known = readKnown();
  const skip = except === undefined ? undefined : resolve(except);
  const locked = new Map<string, string[]>();
  const unreadable: string[] = [];
  const alive: string[] = [];
  for (const path of known) {
    if (!existsSync(path)) continue; // gone (the repository moved or was deleted): forgotten
    alive.push(path);
    if (path === skip) continue;
    let lock;
    try {
      lock = readPluginsLock(path);
    } catch {
      unreadable.push(path);
      continue;
    }
    for (const [id, entry] of Object.entries(lock)) {
      const key = `${id}@${entry.version}`;
      locked.set(key, [...(locked.get(key) ?? []), path]);
    }
  }
  if (alive.length !== known.length) {
    try {
      writeKnown(alive);
    } catch {
      // read-only TRAVSR_HOME: forgotten next time
    }
  }
  return { locked, unreadable };
}
