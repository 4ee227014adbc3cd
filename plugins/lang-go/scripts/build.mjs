// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox).
//
//   dist/main.js               src/main.ts with every dependency and queries/go.scm bundled (esbuild)
//   dist/tree-sitter.wasm      web-tree-sitter's runtime
//   dist/tree-sitter-go.wasm   the grammar, from tree-sitter-wasms@0.1.13
//   dist/languages.json        the language table, for tools (test/bench/structural-coverage.js)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build(pluginBundleOptions(join(root, 'src', 'main.ts'), join(dist, 'main.js'), { loader: { '.scm': 'text' } }));
copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), join(dist, 'tree-sitter.wasm'));
copyFileSync(
  join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', 'tree-sitter-go.wasm'),
  join(dist, 'tree-sitter-go.wasm'),
);
const table = { byExtension: { '.go': 'go' }, byName: {}, grammars: { go: 'tree-sitter-go.wasm' } };
writeFileSync(join(dist, 'languages.json'), `${JSON.stringify(table, null, 2)}\n`);

console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm, tree-sitter-go.wasm)`);
