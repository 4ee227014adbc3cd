// Builds the plugin into dist/: one bundled file plus the wasm it loads, so the plugin
// directory runs with nothing but Node.js (the host binds it read-only into a sandbox,
// without node_modules).
//
//   dist/main.js               src/main.ts with every dependency bundled (esbuild)
//   dist/tree-sitter.wasm      web-tree-sitter's runtime
//   dist/tree-sitter-lua.wasm  the Lua grammar from tree-sitter-wasms (scanner fix applied)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildIfChanged, buildPlugin, pluginBuildStep } from '@travsr/sdk/build';
import { patchLuaScanner } from './patch-lua-scanner.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  // Type-check, then bundle (the SDK's shared steps).
  const p = await buildPlugin(root, build, [{ entry: 'src/main.ts', outfile: 'main.js', loader: { '.scm': 'text' } }]);

  // The wasm files next to the bundle.
  p.copy(p.treeSitterRuntime(), 'tree-sitter.wasm');
  p.copy(p.treeSitterGrammar('tree-sitter-lua.wasm'), 'tree-sitter-lua.wasm', patchLuaScanner);

  console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm, tree-sitter-lua.wasm)`);
});
