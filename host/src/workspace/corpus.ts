import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { execa } from 'execa';

/**
 * The VName corpus of a repository when configuration leaves it empty: the `origin`
 * remote as `host/owner/name` (`git@github.com:acme/app.git` → `github.com/acme/app`),
 * else the directory name.
 */
export async function deriveCorpus(repoRoot: string): Promise<string> {
  const plain = originUrlFromConfig(repoRoot);
  if (plain !== undefined) return plain === '' ? basename(repoRoot) : normalizeRemote(plain);
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

/**
 * `remote.origin.url` read from `<repoRoot>/.git/config` without starting git, when that file
 * alone decides it: a plain `.git` directory whose config includes no other file and sets the url
 * once. Undefined — ask git — for anything else (no origin here, which the user's or the system's
 * config could set; a linked worktree or submodule; an `[include]`; an unreadable file; several
 * urls; quoting or continuation lines git would undo).
 */
export function originUrlFromConfig(repoRoot: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(repoRoot, '.git', 'config'), 'utf8');
  } catch {
    return undefined;
  }
  let inOrigin = false;
  const urls: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.startsWith('[')) {
      const section = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]$/.exec(line);
      if (!section) return undefined; // `[remote.origin]`, a key on the header line…: git knows
      const name = section[1]!.toLowerCase();
      if (name === 'include' || name === 'includeif') return undefined;
      inOrigin = name === 'remote' && section[2] === 'origin';
      continue;
    }
    if (!inOrigin) continue;
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv) return undefined;
    if (kv[1]!.toLowerCase() !== 'url') continue;
    const value = kv[2] ?? '';
    if (/["\\]|\s[#;]/.test(value)) return undefined; // quoting, escapes, a trailing comment
    urls.push(value.trim());
  }
  // git prints the last of several, and reads the user's and the system's config too: with none
  // here (or several), ask it.
  return urls.length === 1 ? urls[0] : undefined;
}
