import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { loadBundle } from '@travsr/sdk/code-cache';

// Imports Node's built-ins and the SDK's loader (built-ins only): bin/run.js loads this module
// from dist/ before any bundle.

/** A CommonJS bundle run from V8's code cache (see {@link requireWithCodeCache}). */
export interface CachedModule {
  /** What the bundle exports (`module.exports`). */
  readonly exports: Record<string, unknown>;
  /** True when V8 took the cached code; false on a first run, after a rebuild, or with a rejected cache. */
  readonly cacheUsed: boolean;
  /**
   * Stores the code V8 has compiled so far — everything the command ran, lazily compiled
   * functions included — for the next start. Call it once the work is done. Only writes when
   * the cache was not used (so at most once per build of the bundle); never throws. Call it after
   * a run that did the command's work (not after a usage error), so the cache holds that work.
   */
  saveCache(): void;
}

/** Where {@link requireWithCodeCache} keeps its caches, and whether it may. */
export interface CodeCacheOptions {
  /** Directory of the cache files (created when missing). */
  dir: string;
  /** False: load the bundle without a cache, write none (`TRAVSR_CODE_CACHE=0`). */
  enabled?: boolean;
  /**
   * What the bundle is run for, when it serves several commands: each keeps its own cache (V8's
   * cache holds the functions the first run compiled, so one command's would miss another's).
   */
  variant?: string;
}

/**
 * Loads a CommonJS bundle the way `require` would, but compiled from V8's code cache when one
 * was saved for exactly this file: Node 20 has no compile cache of its own for a bundle
 * (Node 22's `module.enableCompileCache` is that), and a cold start of the CLI spends a good part
 * of its time parsing and compiling the same 1.5 MB of JavaScript again (about 140 ms of a
 * one-file `hook-run`).
 *
 * A cache belongs to one file at one path, size, modification time and inode, one Node version
 * and architecture — V8's own check compares little more than the source's length — so a
 * rebuilt or moved bundle never runs another build's code; older caches of the same bundle are
 * removed when a new one is written. Nothing about the cache can fail the command: an
 * unreadable, unwritable or corrupt cache means a start without it.
 *
 * @example
 * ```ts
 * const lean = requireWithCodeCache(bundlePath, { dir: join(travsrHome, 'cache', 'v8'), variant: 'status' });
 * const code = await (lean.exports.runLeanEntry as (a: string[]) => Promise<number | undefined>)(args);
 * if (code === 0) lean.saveCache();
 * ```
 */
export function requireWithCodeCache(file: string, opts: CodeCacheOptions): CachedModule {
  const cacheFile = opts.enabled !== false ? cacheFileFor(file, opts.dir, opts.variant) : undefined;
  const loaded = loadBundle<Record<string, unknown>>(file, cacheFile ? { cacheFile } : { cache: false });
  let saved = loaded.cacheUsed;
  return {
    exports: loaded.exports,
    cacheUsed: loaded.cacheUsed,
    saveCache() {
      if (saved || cacheFile === undefined) return;
      saved = true;
      writeCache(cacheFile, loaded.script.createCachedData());
    },
  };
}

/**
 * The cache file of `file`: `<name>[-<variant>]-<where>-<which>.v8`, `where` naming the bundle's
 * path (so two installations sharing one Travsr home keep a cache each) and `which` its build.
 */
export function cacheFileFor(file: string, dir: string, variant?: string): string | undefined {
  let st;
  try {
    st = statSync(file);
  } catch {
    return undefined;
  }
  const where = digest(file);
  const which = digest(`${st.size}:${st.mtimeMs}:${st.ino}:${process.version}:${process.arch}:${process.execArgv.join(' ')}`);
  const name = variant === undefined ? basename(file) : `${basename(file)}-${variant.replace(/[^a-z0-9-]/gi, '_')}`;
  return join(dir, `${name}-${where}-${which}.v8`);
}

function digest(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 16);
}

/** Writes the cache atomically (another process may be reading) and removes the same bundle's older ones. */
function writeCache(cacheFile: string, data: Buffer): void {
  const dir = dirname(cacheFile);
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, cacheFile);
    const prefix = basename(cacheFile).replace(/-[0-9a-f]+\.v8$/, '-');
    for (const name of readdirSync(dir))
      if (name.startsWith(prefix) && name.endsWith('.v8') && name !== basename(cacheFile)) rmSync(join(dir, name), { force: true });
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the directory itself is unusable: nothing was left behind
    }
  }
}
