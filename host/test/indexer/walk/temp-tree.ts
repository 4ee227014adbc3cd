// Real directories for the walk tests.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { walkRepository, type WalkEntry, type WalkOptions } from '../../../src/indexer/walk/index.js';

/** Creates a temporary directory holding `files` (path → content; a path ending in `/` is an empty directory). */
export function makeTree(files: Record<string, string | Buffer>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-walk-')));
  addFiles(root, files);
  return root;
}

export function addFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) {
      mkdirSync(join(root, path), { recursive: true });
      continue;
    }
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export async function walkAll(root: string, options: WalkOptions = {}): Promise<WalkEntry[]> {
  const out: WalkEntry[] = [];
  for await (const entry of walkRepository(root, options)) out.push(entry);
  return out;
}

export async function walkedFiles(root: string, options: WalkOptions = {}): Promise<string[]> {
  return (await walkAll(root, options)).filter((e) => e.kind === 'file').map((e) => e.path);
}

/** Skipped entries as `path → "reason: detail"`. */
export async function skips(root: string, options: WalkOptions = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await walkAll(root, options)) if (e.kind === 'skipped') out[e.path] = `${e.reason}: ${e.detail}`;
  return out;
}
