// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox,
// without node_modules).
//
//   dist/main.js                src/main.ts with every dependency (saxes, web-tree-sitter) bundled
//   dist/tree-sitter.wasm       web-tree-sitter's runtime
//   dist/tree-sitter-json.wasm  the grammars from tree-sitter-wasms,
//   dist/tree-sitter-toml.wasm
//   dist/tree-sitter-yaml.wasm  the YAML one with its allocator imports renamed (see patch-yaml-imports.mjs)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildIfChanged, buildPlugin, pluginBuildStep } from '@travsr/sdk/build';
import { patchYamlImports } from './patch-yaml-imports.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  // Type-check, then bundle (the SDK's shared steps).
  const p = await buildPlugin(root, build);

  // The wasm files next to the bundle.
  p.copy(p.treeSitterRuntime(), 'tree-sitter.wasm');
  for (const grammar of ['tree-sitter-json.wasm', 'tree-sitter-toml.wasm']) p.copy(p.treeSitterGrammar(grammar), grammar);
  p.copy(p.treeSitterGrammar('tree-sitter-yaml.wasm'), 'tree-sitter-yaml.wasm', patchYamlImports);

  console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm and the json, toml, yaml grammars)`);
});
