import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** Repository paths of the modules (directories with a go.mod) that hold `paths`, nearest first. */
export function moduleDirsOf(paths: Iterable<string>, hasGoMod: (dir: string) => boolean): Map<string, string[]> {
  const byModule = new Map<string, string[]>();
  const cache = new Map<string, string | undefined>();
  const find = (dir: string): string | undefined => {
    if (cache.has(dir)) return cache.get(dir);
    const found = hasGoMod(dir) ? dir : dir === '' ? undefined : find(posix.dirname(dir) === '.' ? '' : posix.dirname(dir));
    cache.set(dir, found);
    return found;
  };
  for (const path of paths) {
    const dir = posix.dirname(path);
    const mod = find(dir === '.' ? '' : dir);
    if (mod === undefined) continue;
    byModule.set(mod, [...(byModule.get(mod) ?? []), path]);
  }
  return byModule;
}

/** Repository paths of the `.go` files under `root` (skipping vendor/, testdata/ and dot directories), for module discovery. */
export async function goFilesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(join(root, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || e.name === 'vendor' || e.name === 'testdata' || e.name === 'node_modules') continue;
        await walk(rel);
      } else if (e.isFile() && e.name.endsWith('.go')) out.push(rel);
    }
  };
  await walk('');
  return out;
}
