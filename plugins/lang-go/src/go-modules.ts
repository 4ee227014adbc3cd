import { posix } from 'node:path';

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
