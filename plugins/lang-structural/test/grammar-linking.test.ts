// A grammar .wasm is linked against web-tree-sitter's runtime when it is loaded; a function it
// imports that the runtime does not export only fails when the scanner first calls it, in the
// middle of some file (Bash's `isalpha`, on `[ "$a" != b -a … ]`). Check every shipped grammar.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../src/languages.js';
import { analyzeInput, builtAnalyzer, distDir } from './analyze-fixture.js';
// @ts-expect-error: a plain .mjs build script, no types
import { renameFunctionImport } from '../scripts/rename-wasm-import.mjs';

// Only called when the scanner's own assertion fails: the file fails, the parser is replaced.
const FATAL_ONLY = new Set(['__assert_fail', 'abort']);
const require = createRequire(import.meta.url);

/** The part of the WebAssembly API used here (the project's lib settings do not declare it). */
interface WasmModuleApi {
  Module: {
    new (bytes: Uint8Array): object;
    imports(m: object): { module: string; name: string; kind: string }[];
    exports(m: object): { name: string; kind: string }[];
  };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmModuleApi }).WebAssembly;

function functionImports(path: string): string[] {
  return Wasm.Module.imports(new Wasm.Module(readFileSync(path)))
    .filter((i) => i.kind === 'function')
    .map((i) => i.name);
}

describe('grammar linking', () => {
  const runtime = new Set(Wasm.Module.exports(new Wasm.Module(readFileSync(join(distDir, 'tree-sitter.wasm')))).map((e) => e.name));

  it.each(LANGUAGES.map((l) => [l.id, l.grammar]))('%s: every function the grammar imports is in the runtime', (_id, grammar) => {
    const missing = functionImports(join(distDir, grammar)).filter((n) => !runtime.has(n) && !FATAL_ONLY.has(n));
    expect(missing).toEqual([]);
  });

  it('the Bash grammar as published imports isalpha, which the runtime lacks (why the build renames it)', () => {
    const published = join(require.resolve('tree-sitter-wasms/package.json'), '..', 'out', 'tree-sitter-bash.wasm');
    expect(functionImports(published)).toContain('isalpha');
    expect(runtime.has('isalpha')).toBe(false);
    const renamed = renameFunctionImport(readFileSync(published), 'env', 'isalpha', 'iswalpha') as Buffer;
    expect(renamed.equals(readFileSync(join(distDir, 'tree-sitter-bash.wasm')))).toBe(true);
    expect(() => renameFunctionImport(readFileSync(published), 'env', 'no_such_function', 'x')).toThrow(/not the known grammar/);
  });

  it('parses the test operators that call isalpha, and goes on after a grammar throws', async () => {
    const analyzer = builtAnalyzer();
    await analyzer.initialize();
    const ok = await analyzeInput(analyzer, 'bash/scripts/deploy.sh');
    expect(ok.diagnostics).toEqual([]);
    // Force a throw out of a parse (as a missing import does), then parse again.
    const lang = await analyzer.load(LANGUAGES.find((l) => l.id === 'bash')!);
    const broken = lang.parser.current;
    broken.parse = () => {
      throw new TypeError('resolved is not a function');
    };
    await expect(analyzeInput(analyzer, 'bash/scripts/deploy.sh')).rejects.toThrow(
      /bash grammar .* failed on bash\/scripts\/deploy.sh: resolved is not a function/,
    );
    expect(lang.parser.current).not.toBe(broken);
    expect((await analyzeInput(analyzer, 'bash/scripts/deploy.sh')).diagnostics).toEqual([]);
  });
});
