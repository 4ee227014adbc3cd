import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The host package's directory (the one holding its `package.json`, `bin/`, `templates/`,
 * `dist/`): the nearest `package.json` above this module. Found by searching, not by a fixed
 * `../..`, because the same code runs from `src/` (tests), from `dist/` and from the CLI's
 * bundle (`dist/bundle/`, where modules are merged into chunks at other depths).
 */
export function hostPackageDir(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return (cached = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}: the travsr host package is incomplete`);
    dir = parent;
  }
}

/** A path inside the host package: `hostPackagePath('bin', 'run.js')`. */
export function hostPackagePath(...segments: string[]): string {
  return join(hostPackageDir(), ...segments);
}
