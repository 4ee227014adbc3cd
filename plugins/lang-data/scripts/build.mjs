// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox,
// without node_modules).
//
//   dist/main.js                src/main.ts with every dependency (saxes, web-tree-sitter) bundled
//   dist/tree-sitter.wasm       web-tree-sitter's runtime
//   dist/tree-sitter-json.wasm  the grammars from tree-sitter-wasms,
//   dist/tree-sitter-toml.wasm
//   dist/tree-sitter-yaml.wasm  the YAML one with its allocator imports renamed (see patch-yaml-imports.mjs)
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { pluginBundleOptions } from '@travsr/sdk/build';
import { patchYamlImports } from './patch-yaml-imports.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
const require = createRequire(import.meta.url);

// 1. Type-check (esbuild only strips types).
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });

// 2. Bundle.
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build(pluginBundleOptions(join(root, 'src', 'main.ts'), join(dist, 'main.js')));

// 3. The wasm files next to the bundle.
copyFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm'), join(dist, 'tree-sitter.wasm'));
const grammars = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');
copyFileSync(join(grammars, 'tree-sitter-json.wasm'), join(dist, 'tree-sitter-json.wasm'));
copyFileSync(join(grammars, 'tree-sitter-toml.wasm'), join(dist, 'tree-sitter-toml.wasm'));
writeFileSync(join(dist, 'tree-sitter-yaml.wasm'), patchYamlImports(readFileSync(join(grammars, 'tree-sitter-yaml.wasm'))));

console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm and the json, toml, yaml grammars)`);
