// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox).
//
//   dist/main.js                 src/main.ts with every dependency and queries/dart.scm bundled (esbuild)
//   dist/tree-sitter.wasm        web-tree-sitter's runtime
//   dist/tree-sitter-dart.wasm   the grammar, from tree-sitter-wasms@0.1.13
//   dist/languages.json          the language table, for tools (test/bench/structural-coverage.js)
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildGrammarPlugin, buildIfChanged, pluginBuildStep } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  await buildGrammarPlugin(root, build, { grammars: { dart: 'tree-sitter-dart.wasm' } });
  console.log('built dist/main.js (+ tree-sitter.wasm, tree-sitter-dart.wasm)');
});
