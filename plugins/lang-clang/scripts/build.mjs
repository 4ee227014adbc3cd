// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox).
//
//   dist/main.js                 src/main.ts with every dependency and both queries bundled (esbuild)
//   dist/tree-sitter.wasm        web-tree-sitter's runtime
//   dist/tree-sitter-c.wasm      the C grammar, from tree-sitter-wasms@0.1.13
//   dist/tree-sitter-cpp.wasm    the C++ grammar
//   dist/languages.json          the language table, for tools (test/bench/structural-coverage.js)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildGrammarPlugin, buildIfChanged, pluginBuildStep } from '@travsr/sdk/build';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// languages.json: language → grammar and extensions (src/languages.ts reads the same file).
const languages = JSON.parse(readFileSync(join(root, 'languages.json'), 'utf8'));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  await buildGrammarPlugin(root, build, {
    grammars: Object.fromEntries(Object.entries(languages).map(([id, l]) => [id, l.grammar])),
    files: Object.fromEntries(Object.entries(languages).flatMap(([id, l]) => l.extensions.map((e) => [e, id]))),
  });
  console.log('built dist/main.js (+ tree-sitter.wasm, tree-sitter-c.wasm, tree-sitter-cpp.wasm)');
});
