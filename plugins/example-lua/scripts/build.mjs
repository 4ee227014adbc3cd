// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox,
// without node_modules).
//
//   dist/main.js               src/main.ts with every dependency bundled (esbuild)
//   dist/tree-sitter.wasm      web-tree-sitter's runtime
//   dist/tree-sitter-lua.wasm  the Lua grammar from tree-sitter-wasms (scanner fix applied)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';
import { patchLuaScanner } from './patch-lua-scanner.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

// 1. Type-check (esbuild only strips types).
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

// 2. Bundle.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build(pluginBundleOptions(join(root, 'src', 'main.ts'), join(dist, 'main.js'), { loader: { '.scm': 'text' } }));

// 3. The wasm files next to the bundle.
copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), join(dist, 'tree-sitter.wasm'));
const grammar = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', 'tree-sitter-lua.wasm');
writeFileSync(join(dist, 'tree-sitter-lua.wasm'), patchLuaScanner(readFileSync(grammar)));

console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm, tree-sitter-lua.wasm)`);
