import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeLaunchFlags } from '@travsr/protocol/node';
import { BUILD_RECORD_FILE, buildPlugin, type PluginBuildRecord } from '../../src/build/index.js';
import { codeCacheFile, loadBundle } from '../../src/code-cache.js';

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
      // The ES libraries alone, no DOM and none of the workspace's @types (the defaults bring in
      // some 170 files, Node's types the most, and cost 6 CPU-seconds a check instead of 1).
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'ESNext',
        target: 'ES2022',
        lib: ['ES2022'],
        types: [],
        moduleResolution: 'Bundler',
      },
      include: ['src'],
    }),
  );
  writeFileSync(join(root, 'src', 'main.ts'), mainTs);
  return root;
}

describe('buildPlugin', () => {
  it('type-checks, empties dist/, bundles each entry with its extra banner, and resolves the tree-sitter files', async () => {
    const root = pluginDir('export const answer: number = 42;\nexport default answer;\n');
    writeFileSync(
      join(root, 'src', 'analysis.ts'),
      // (ImportMeta's `url` is declared by Node's types, which the check leaves out.)
      'declare global { interface ImportMeta { url: string } }\nexport const url: string = import.meta.url;\nexport let warmed = false;\nexport function warm(): void { warmed = true; }\n',
    );
    writeFileSync(join(root, 'travsr-plugin.json'), JSON.stringify({ constraints: { resources: { memoryMiB: 4096 } } }));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'stale.js'), 'left over');
    const p = await buildPlugin(root, build, [
      { entry: 'src/main.ts', outfile: 'main.js', banner: ['const __probe = 1;'] },
      { entry: 'src/analysis.ts', outfile: 'analysis.cjs', format: 'cjs' },
    ]);
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
    expect(record.bundles).toEqual([
      { output: 'dist/main.js', inputs: { 'src/main.ts': expect.any(Number) } },
      { output: 'dist/analysis.cjs', inputs: { 'src/analysis.ts': expect.any(Number) } },
    ]);
    expect(record.assets.map((a) => a.file)).toEqual(['dist/runtime/tree-sitter.wasm', 'dist/tree-sitter-go.wasm']);
    expect(record.assets[1]?.source).toMatch(/tree-sitter-wasms\/out\/tree-sitter-go\.wasm$/);

    // A CommonJS bundle (`format: 'cjs'`): import.meta.url is its file; its code cache is the
    // one a brief session of this plugin takes (the host's flags for 4096 MiB asked for).
    const cjs = join(p.dist, 'analysis.cjs');
    expect(loadBundle<{ url: string }>(cjs).exports.url).toBe(pathToFileURL(cjs).href);
    expect(p.writeCodeCaches('analysis.cjs', 'warm')).toEqual([codeCacheFile(cjs, nodeLaunchFlags(4096, { brief: true }))]);
    expect(existsSync(codeCacheFile(cjs, nodeLaunchFlags(4096, { brief: true })))).toBe(true);
  });

  it('stops at a type error, before touching dist/', async () => {
    const root = pluginDir('export const answer: number = "forty-two";\n');
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, 'dist', 'main.js'), 'the previous build');
    await expect(buildPlugin(root, build)).rejects.toThrow(/tsc/);
    expect(readFileSync(join(root, 'dist', 'main.js'), 'utf8')).toBe('the previous build');
  });
});
