import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { codeCacheFile } from '../code-cache.js';

/**
 * The program a child process runs to store a bundle's code cache: `node <flags> -e WRITER
 * <bundle> <warm export> <cache file>`. It compiles the bundle exactly as `loadBundle` does (same
 * wrapper, same decoding: V8 takes a cache only for the same source) and uses Node's built-ins
 * alone, so it runs the same from the SDK's sources and from its build.
 */
const WRITER = `
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const { isAscii } = require('node:buffer');
const Module = require('node:module');
const { dirname } = require('node:path');
const { Script } = require('node:vm');
const [bundle, warm, out] = process.argv.slice(1);
const bytes = readFileSync(bundle);
const script = new Script(Module.wrap(bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8')), { filename: bundle });
const mod = { exports: {} };
script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, dirname(bundle));
(async () => {
  if (warm) {
    if (typeof mod.exports[warm] !== 'function') throw new Error(bundle + ' exports no function "' + warm + '" to warm its code cache with');
    await mod.exports[warm]();
  }
  writeFileSync(out + '.tmp', script.createCachedData());
  renameSync(out + '.tmp', out);
})().catch((e) => { console.error(e instanceof Error ? e.message : e); process.exitCode = 1; });
`;

/** What {@link writeCodeCaches} stores. */
export interface CodeCacheBuildOptions {
  /**
   * The Node.js flags of the processes that will load the bundle, one set per cache
   * (`nodeLaunchFlags` of `@travsr/protocol/node` for a plugin's process and its worker threads).
   */
  flagSets: readonly (readonly string[])[];
  /**
   * An export of the bundle to call (and await) before the cache is stored: work like a
   * session's, so the functions it compiles lazily are in the cache too, not only the
   * bundle's top level.
   */
  warm?: string;
}

/**
 * Stores V8 code caches of a CommonJS bundle next to it, one per flag set
 * (`<bundle>.<key>.v8`, see `codeCacheFile` of `@travsr/sdk`), each made by a Node.js process
 * started with those flags (V8 takes a cache only from a process with the same flags). The
 * plugin loads the bundle with `requireBundle`, which takes the cache that matches it. Older
 * caches of the bundle are removed. Returns the files written.
 *
 * @throws the child's error when the bundle fails to load or its warm-up fails (nothing is stored for that flag set).
 * @example
 * ```js
 * import { nodeLaunchFlags } from '@travsr/protocol/node';
 * writeCodeCaches(join(dist, 'analysis.cjs'), { flagSets: [nodeLaunchFlags(4096, { brief: true })], warm: 'warmCodeCache' });
 * ```
 */
export function writeCodeCaches(bundle: string, opts: CodeCacheBuildOptions): string[] {
  const prefix = `${basename(bundle)}.`;
  for (const name of readdirSync(dirname(bundle)))
    if (name.startsWith(prefix) && name.endsWith('.v8')) rmSync(join(dirname(bundle), name), { force: true });
  const env = { ...process.env };
  // The flags are exactly the set's: NODE_OPTIONS would change V8's and the cache would be refused.
  delete env['NODE_OPTIONS'];
  return opts.flagSets.map((flags) => {
    const file = codeCacheFile(bundle, flags);
    try {
      // A fixed random seed makes the cache the same bytes at every build of the same bundle (a
      // rebuild leaves the plugin's tree hash as it was); V8 leaves the seed out of the flags it
      // checks a cache against, so the plugin's processes, with their own seeds, take it.
      execFileSync(process.execPath, [...flags, '--random-seed=1', '-e', WRITER, bundle, opts.warm ?? '', file], {
        stdio: ['ignore', 'inherit', 'pipe'],
        env,
      });
    } catch (e) {
      const stderr = ((e as { stderr?: Buffer | string }).stderr ?? '').toString().trim();
      throw new Error(`the code cache of ${bundle} for \`node ${flags.join(' ')}\` was not stored: ${stderr || (e as Error).message}`);
    }
    return file;
  });
}
