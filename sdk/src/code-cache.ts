import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** A CommonJS bundle loaded by {@link loadBundle}. */
export interface LoadedBundle<T> {
  /** What the bundle exports (`module.exports`). */
  readonly exports: T;
  /** True when V8 took the code cache; false without one, or when V8 refused it. */
  readonly cacheUsed: boolean;
  /** The compiled script: `createCachedData()` gives the code compiled so far (what a build stores). */
  readonly script: Script;
}

/**
 * The code cache file of `bundle` for a process with these Node.js flags, this Node version and
 * architecture: `<bundle>.<key>.v8`. V8 refuses a cache made under other flags (even another
 * `--max-old-space-size`), so a build writes one per flag set the host starts the plugin with.
 */
export function codeCacheFile(bundle: string, execArgv: readonly string[] = process.execArgv): string {
  const key = createHash('sha256')
    .update([process.version, process.arch, ...execArgv].join('\0'))
    .digest('hex')
    .slice(0, 16);
  return `${bundle}.${key}.v8`;
}

/**
 * Loads a CommonJS bundle the way `require` would, compiled from the V8 code cache its build
 * stored next to it for this process's Node version and flags ({@link codeCacheFile}) when
 * there is one. Node 20 compiles an ES module from source at every start: for a large bundle
 * (the TypeScript compiler, some 7 MB) that is a good part of a plugin's start-up, in every
 * session. A missing, refused or unreadable cache only means compiling from source.
 *
 * The cache is read from the plugin's own (read-only, checksummed) directory: nothing is
 * written at run time.
 *
 * @param opts.cache false: compile from source and read no cache (what a build does before it
 *   stores one).
 * @param opts.cacheFile read the cache from this file instead of the one next to the bundle (the
 *   CLI keeps its caches in the user's Travsr home).
 * @example
 * ```ts
 * const analysis = loadBundle<typeof import('./analysis.js')>(new URL('analysis.cjs', import.meta.url)).exports;
 * ```
 */
export function loadBundle<T>(file: string | URL, opts: { cache?: boolean; cacheFile?: string } = {}): LoadedBundle<T> {
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  const bytes = readFileSync(path);
  // A bundle is ASCII (esbuild escapes the rest): read so, it is a copy, not a UTF-8 decode (60 ms for 7 MB).
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  let cachedData: Buffer | undefined;
  if (opts.cache !== false) {
    try {
      cachedData = readFileSync(opts.cacheFile ?? codeCacheFile(path));
    } catch {
      // no cache for these flags: compile from source
    }
  }
  const script = new Script(Module.wrap(source), { filename: path, ...(cachedData ? { cachedData } : {}) });
  const cacheUsed = cachedData !== undefined && !script.cachedDataRejected;
  const mod = { exports: {} as T };
  const init = script.runInThisContext() as (
    exports: T,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
  ) => void;
  init.call(mod.exports, mod.exports, createRequire(path), mod, path, dirname(path));
  return { exports: mod.exports, cacheUsed, script };
}

const loaded = new Map<string, unknown>();

/**
 * {@link loadBundle}'s exports, loaded once per file and thread.
 *
 * @example
 * ```ts
 * const { phaseA } = requireBundle<typeof import('./analysis.js')>(new URL('analysis.cjs', import.meta.url));
 * ```
 */
export function requireBundle<T>(file: string | URL): T {
  const path = typeof file === 'string' ? file : fileURLToPath(file);
  if (!loaded.has(path)) loaded.set(path, loadBundle<T>(path).exports);
  return loaded.get(path) as T;
}
