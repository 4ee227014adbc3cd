import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { travsrHome } from '../paths/travsr-home.js';
import { writePrivateFile } from '../paths/private-file.js';

/**
 * The repositories `travsr init` has set up for this user, in `<TRAVSR_HOME>/repos.json`: the
 * daemon manages them (those `travsr daemon add` added and `remove` took out likewise). A
 * repository whose `.travsr/` is gone is left out when read.
 */
export function knownReposFile(): string {
  return join(travsrHome(), 'repos.json');
}

interface KnownRepos {
  /** Roots, absolute, sorted. */
  repos: string[];
}

function read(): KnownRepos {
  try {
    const v = JSON.parse(readFileSync(knownReposFile(), 'utf8')) as { repos?: unknown };
    return { repos: Array.isArray(v.repos) ? v.repos.filter((r): r is string => typeof r === 'string') : [] };
  } catch {
    return { repos: [] }; // none yet, or unreadable: no repository is known
  }
}

/** The known repositories that still have an index, sorted. */
export function knownRepos(): string[] {
  return read().repos.filter((r) => existsSync(join(r, '.travsr')));
}

/** Adds a repository root; true when it was not known. Never throws: a lost record only means `daemon add` is needed. */
export function rememberRepo(root: string): boolean {
  const abs = resolve(root);
  const known = read().repos;
  if (known.includes(abs)) return false;
  return writePrivateFile(knownReposFile(), `${JSON.stringify({ repos: [...known, abs].sort() }, null, 2)}\n`);
}

/** Removes a repository root; true when it was known. */
export function forgetRepo(root: string): boolean {
  const abs = resolve(root);
  const known = read().repos;
  if (!known.includes(abs)) return false;
  return writePrivateFile(knownReposFile(), `${JSON.stringify({ repos: known.filter((r) => r !== abs) }, null, 2)}\n`);
}
