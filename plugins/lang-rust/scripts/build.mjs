// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox).
//
//   dist/main.js                 src/main.ts with every dependency bundled (esbuild)
//   dist/tree-sitter.wasm        web-tree-sitter's runtime
//   dist/tree-sitter-rust.wasm   the grammar, from tree-sitter-wasms@0.1.13
//   dist/languages.json          the language table, for tools (test/bench/structural-coverage.js)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildIfChanged, buildPlugin, pluginBuildStep } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  const p = await buildPlugin(root, (options) => build({ ...options, minify: true, keepNames: true }));
  p.copy(p.treeSitterRuntime(), 'tree-sitter.wasm');
  p.copy(p.treeSitterGrammar('tree-sitter-rust.wasm'), 'tree-sitter-rust.wasm');
  const table = { byExtension: { '.rs': 'rust' }, byName: {}, grammars: { rust: 'tree-sitter-rust.wasm' } };
  writeFileSync(join(p.dist, 'languages.json'), `${JSON.stringify(table, null, 2)}\n`);

  console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm, tree-sitter-rust.wasm)`);
});
