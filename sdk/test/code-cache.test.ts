import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeCodeCaches } from '../src/build/code-cache.js';
import { codeCacheFile, loadBundle, requireBundle } from '../src/code-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'travsr-code-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A CommonJS bundle: top-level work, a lazily compiled function, a warm-up export, non-ASCII text. */
function bundle(name: string): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    [
      "const { basename } = require('node:path');",
      'exports.name = basename(__filename);',
      "exports.greeting = 'grüße';",
      'exports.fib = function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); };',
      'exports.warm = async function warm() { exports.fib(10); };',
    ].join('\n'),
  );
  return file;
}

/**
 * Loads `file` with the SDK's built loader (sdk/dist: a plain Node.js process cannot import the
 * TypeScript sources) in a process started with `flags`, as the host starts a plugin.
 */
function loadIn(flags: string[], file: string): { cacheUsed: boolean; greeting: string; fib: number } {
  const program = [
    `import { loadBundle } from ${JSON.stringify(pathToFileURL(join(process.cwd(), 'sdk', 'dist', 'code-cache.js')).href)};`,
    `const b = loadBundle(${JSON.stringify(file)});`,
    'console.log(JSON.stringify({ cacheUsed: b.cacheUsed, greeting: b.exports.greeting, fib: b.exports.fib(10) }));',
  ].join('\n');
  const script = join(dir, `load-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(script, program);
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  return JSON.parse(execFileSync(process.execPath, [...flags, script], { env, encoding: 'utf8' })) as ReturnType<typeof loadIn>;
}

describe('V8 code caches of a CommonJS bundle', () => {
  const flags = ['--max-old-space-size=96', '--liftoff-only'];

  it('writeCodeCaches stores one cache per flag set, after the warm-up, and removes older ones', () => {
    const file = bundle('a.cjs');
    writeFileSync(`${file}.0123456789abcdef.v8`, 'a cache of an older build');
    const written = writeCodeCaches(file, { flagSets: [flags, ['--max-old-space-size=64']], warm: 'warm' });
    expect(written).toEqual([codeCacheFile(file, flags), codeCacheFile(file, ['--max-old-space-size=64'])]);
    expect(
      readdirSync(dir)
        .filter((n) => n.startsWith('a.cjs.') && n.endsWith('.v8'))
        .sort(),
    ).toEqual(written.map((f) => f.slice(dir.length + 1)).sort());
    for (const f of written) expect(readFileSync(f).length).toBeGreaterThan(0);
    // The same bundle gives the same bytes (a rebuild changes no checksum of the plugin).
    const first = readFileSync(written[0] as string);
    writeCodeCaches(file, { flagSets: [flags], warm: 'warm' });
    expect(readFileSync(written[0] as string).equals(first)).toBe(true);
  });

  it('a process started with the same flags loads from the cache; others compile from source, with the same exports', () => {
    const file = bundle('b.cjs');
    writeCodeCaches(file, { flagSets: [flags], warm: 'warm' });
    expect(loadIn(flags, file)).toEqual({ cacheUsed: true, greeting: 'grüße', fib: 55 });
    // Another heap size: V8 would refuse the cache, and there is none under that name.
    expect(existsSync(codeCacheFile(file, ['--max-old-space-size=97', '--liftoff-only']))).toBe(false);
    expect(loadIn(['--max-old-space-size=97', '--liftoff-only'], file)).toEqual({ cacheUsed: false, greeting: 'grüße', fib: 55 });
  });

  it('a corrupt cache, or one of another build of the bundle, is refused and the bundle compiles from source', () => {
    const file = bundle('c.cjs');
    const [cache] = writeCodeCaches(file, { flagSets: [flags] });
    const bytes = readFileSync(cache as string);
    writeFileSync(cache as string, Buffer.concat([bytes.subarray(0, 16), Buffer.alloc(bytes.length - 16, 7)]));
    expect(loadIn(flags, file)).toEqual({ cacheUsed: false, greeting: 'grüße', fib: 55 });
    // The bundle rebuilt with other code: the cache names the old source's length, V8 refuses it.
    writeCodeCaches(file, { flagSets: [flags] });
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nexports.more = 1;`);
    expect(loadIn(flags, file)).toEqual({ cacheUsed: false, greeting: 'grüße', fib: 55 });
  });

  it('says which bundle and flags failed when the warm-up export is missing or throws', () => {
    const file = bundle('d.cjs');
    expect(() => writeCodeCaches(file, { flagSets: [flags], warm: 'nothing' })).toThrow(
      /code cache of .*d\.cjs for `node --max-old-space-size=96 --liftoff-only` was not stored: .*exports no function "nothing"/,
    );
    writeFileSync(file, "exports.warm = () => { throw new Error('warm-up failed here'); };");
    expect(() => writeCodeCaches(file, { flagSets: [flags], warm: 'warm' })).toThrow(/warm-up failed here/);
    expect(readdirSync(dir).filter((n) => n.startsWith('d.cjs.'))).toEqual([]);
  });

  it('loadBundle in this process: module-like exports, __filename, and requireBundle loads once', () => {
    const file = bundle('e.cjs');
    const loaded = loadBundle<{ name: string; greeting: string }>(file);
    expect(loaded.cacheUsed).toBe(false); // no cache for this process's flags
    expect(loaded.exports).toMatchObject({ name: 'e.cjs', greeting: 'grüße' });
    const first = requireBundle<object>(pathToFileURL(file));
    expect(requireBundle<object>(file)).toBe(first);
  });
});
