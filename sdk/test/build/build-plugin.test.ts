import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_RECORD_FILE, buildPlugin, type PluginBuildRecord } from '../../src/build/index.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A plugin directory inside the repository (so it resolves typescript and the grammars from node_modules). */
function pluginDir(mainTs: string): string {
  const base = join(process.cwd(), 'node_modules', '.cache');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'travsr-build-plugin-'));
  made.push(root);
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'package.json'), '{ "name": "probe", "type": "module" }');
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'ESNext', target: 'ES2022', moduleResolution: 'Bundler' },
      include: ['src'],
    }),
  );
  writeFileSync(join(root, 'src', 'main.ts'), mainTs);
  return root;
}

describe('buildPlugin', () => {
  it('type-checks, empties dist/, bundles each entry with its extra banner, and resolves the tree-sitter files', async () => {
    const root = pluginDir('export const answer: number = 42;\nconsole.log(answer);\n');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'stale.js'), 'left over');
    const p = await buildPlugin(root, build, [{ entry: 'src/main.ts', outfile: 'main.js', banner: ['const __probe = 1;'] }]);
    expect(p.dist).toBe(join(root, 'dist'));
    expect(existsSync(join(p.dist, 'stale.js'))).toBe(false);
    const bundle = readFileSync(join(p.dist, 'main.js'), 'utf8');
    expect(bundle).toContain('__travsrCreateRequire'); // the SDK's banner
    expect(bundle).toContain('const __probe = 1;');
    expect(existsSync(p.treeSitterRuntime())).toBe(true);
    expect(existsSync(p.treeSitterGrammar('tree-sitter-go.wasm'))).toBe(true);

    // The build record: what esbuild put into the bundle, and each copied file with its source.
    p.copy(p.treeSitterGrammar('tree-sitter-go.wasm'), 'tree-sitter-go.wasm');
    p.copy(p.treeSitterRuntime(), 'runtime/tree-sitter.wasm', (bytes) => bytes.subarray(0, 8));
    expect(readFileSync(join(p.dist, 'runtime', 'tree-sitter.wasm'))).toEqual(readFileSync(p.treeSitterRuntime()).subarray(0, 8));
    const record = JSON.parse(readFileSync(join(p.dist, BUILD_RECORD_FILE), 'utf8')) as PluginBuildRecord;
    const esbuildVersion = (
      JSON.parse(readFileSync(join(process.cwd(), 'node_modules/esbuild/package.json'), 'utf8')) as { version: string }
    ).version;
    expect(record.bundler).toEqual({ name: 'esbuild', version: esbuildVersion });
    expect(record.bundles).toEqual([{ output: 'dist/main.js', inputs: { 'src/main.ts': expect.any(Number) } }]);
    expect(record.assets.map((a) => a.file)).toEqual(['dist/runtime/tree-sitter.wasm', 'dist/tree-sitter-go.wasm']);
    expect(record.assets[1]?.source).toMatch(/tree-sitter-wasms\/out\/tree-sitter-go\.wasm$/);
  });

  it('stops at a type error, before touching dist/', async () => {
    const root = pluginDir('export const answer: number = "forty-two";\n');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'main.js'), 'the previous build');
    await expect(buildPlugin(root, build)).rejects.toThrow(/tsc/);
    expect(readFileSync(join(root, 'dist', 'main.js'), 'utf8')).toBe('the previous build');
  });
});
