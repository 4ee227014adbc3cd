import { basename } from 'node:path';
import { execa } from 'execa';

/**
 * The VName corpus of a repository when configuration leaves it empty: the `origin`
 * remote as `host/owner/name` (`git@github.com:acme/app.git` → `github.com/acme/app`),
 * else the directory name.
 */
export async function deriveCorpus(repoRoot: string): Promise<string> {
  try {
    const r = await execa('git', ['-C', repoRoot, 'config', '--get', 'remote.origin.url'], { reject: false });
    const url = r.stdout.trim();
    if (r.exitCode === 0 && url) return normalizeRemote(url);
  } catch {
    // no git: fall through
  }
  return basename(repoRoot);
}

/** `https://github.com/acme/app.git`, `git@github.com:acme/app.git`, `ssh://…` → `github.com/acme/app`. */
export function normalizeRemote(url: string): string {
  let s = url
    .trim()
    .replace(/\.git$/, '')
    .replace(/(\/\.?)+$/, '');
  // A clone of a local directory: only its name is stable across machines.
  if (s.startsWith('/') || s.startsWith('.') || s.startsWith('file://')) return basename(s) || s;
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(s);
  if (scp) return `${scp[1]}/${scp[2]}`;
  s = s.replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]+@/, '');
  return s.replace(/:\d+\//, '/');
}
