// The YAML grammar of tree-sitter-wasms@0.1.13 cannot parse under web-tree-sitter 0.25 as
// shipped; the build renames two of its imports (scripts/patch-yaml-imports.mjs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGrammar } from '@travsr/sdk/tree-sitter';
import { EXPECTED_FUNCTION_IMPORTS, functionImports, patchYamlImports } from '../scripts/patch-yaml-imports.mjs';
import { GRAMMARS_DIR, patchedYamlGrammar } from './helpers/analyze.js';

const original = readFileSync(join(GRAMMARS_DIR, 'tree-sitter-yaml.wasm'));

describe('the YAML grammar patch', () => {
  it('is needed: the grammar as shipped fails on its first parse', () => {
    // In a child process: web-tree-sitter links grammars by global symbol names, so once the
    // unpatched scanner is loaded, a patched YAML grammar loaded later in the same process
    // would call it too.
    const path = join(mkdtempSync(join(tmpdir(), 'lang-data-')), 'tree-sitter-yaml.wasm');
    writeFileSync(path, original);
    const script = `import { loadGrammar } from ${JSON.stringify(createRequire(import.meta.url).resolve('@travsr/sdk/tree-sitter'))};
      const grammar = await loadGrammar(${JSON.stringify(path)});
      try { grammar.parse('a: 1\\n'); console.log('parsed'); } catch (e) { console.log(e.message); }`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script]).toString();
    expect(out.trim()).toBe('resolved is not a function');
  });

  it('makes the grammar parse, renaming only the allocator imports', async () => {
    expect(functionImports(original)).toEqual(EXPECTED_FUNCTION_IMPORTS);
    const patched = patchYamlImports(original);
    expect(functionImports(patched)).toEqual(EXPECTED_FUNCTION_IMPORTS.map((n) => ({ _Znwm: 'malloc', _ZdlPv: 'free' })[n] ?? n));
    expect(patched.length).toBe(original.length - 1); // "_Znwm" + "_ZdlPv" → "malloc" + "free"
    const grammar = await loadGrammar(patchedYamlGrammar());
    const tree = grammar.parse('a: 1\nb: [x, y]\n');
    expect(tree.rootNode.hasError).toBe(false);
    tree.delete();
  });

  it('leaves a patched grammar as it is and refuses any other module', () => {
    const patched = patchYamlImports(original);
    expect(patchYamlImports(patched)).toBe(patched);
    expect(() => patchYamlImports(readFileSync(join(GRAMMARS_DIR, 'tree-sitter-toml.wasm')))).toThrow(/not the known version/);
    expect(() => patchYamlImports(Buffer.from('not wasm'))).toThrow(/not a WebAssembly module/);
  });

  it('is what the build ships', () => {
    const shipped = readFileSync(new URL('../dist/tree-sitter-yaml.wasm', import.meta.url));
    expect(shipped.equals(patchYamlImports(original))).toBe(true);
  });
});
