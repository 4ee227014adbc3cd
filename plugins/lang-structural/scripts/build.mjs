// Builds the plugin into dist/: one bundled file plus everything it loads at run time, so the
// plugin directory runs with nothing but Node.js (the host binds it read-only into a sandbox,
// without node_modules).
//
//   dist/main.js                    src/main.ts with every dependency bundled (esbuild)
//   dist/tree-sitter.wasm           web-tree-sitter's runtime
//   dist/tree-sitter-<grammar>.wasm every grammar served, from tree-sitter-wasms@0.1.13 (the Bash
//                                   one with an import renamed: see rename-wasm-import.mjs)
//   dist/queries/<language>.scm     the tags queries, read when a language is first used
//   dist/languages.json             the language table, for tools (test/bench/structural-coverage.js)
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { buildIfChanged, buildPlugin, pluginBuildStep } from '@travsr/sdk/build';
import { renameFunctionImport } from './rename-wasm-import.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Nothing happens when nothing the build reads changed since it last ran (TRAVSR_BUILD_FORCE=1 builds anyway).
await buildIfChanged(pluginBuildStep(root), async () => {
  // 1-2. Type-check, then bundle (the SDK's shared steps).
  const p = await buildPlugin(root, build);
  const { dist } = p;
  mkdirSync(join(dist, 'queries'), { recursive: true });
  // The language table, from the same source the bundle holds (Node 20 cannot import .ts).
  const tableModule = join(dist, '.languages.mjs');
  await build({
    entryPoints: [join(root, 'src', 'languages.ts')],
    outfile: tableModule,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  const { LANGUAGES } = await import(pathToFileURL(tableModule).href);
  rmSync(tableModule);

  // 3. The wasm and the queries next to the bundle.
  p.copy(p.treeSitterRuntime(), 'tree-sitter.wasm');
  // Imports a grammar has that web-tree-sitter 0.25's runtime does not export, and what to link instead.
  const RENAMED_IMPORTS = { 'tree-sitter-bash.wasm': [['env', 'isalpha', 'iswalpha']] };
  for (const language of LANGUAGES) {
    p.copy(p.treeSitterGrammar(language.grammar), language.grammar, (bytes) => {
      let wasm = bytes;
      for (const [module, from, to] of RENAMED_IMPORTS[language.grammar] ?? []) wasm = renameFunctionImport(wasm, module, from, to);
      return wasm;
    });
    copyFileSync(join(root, 'queries', `${language.id}.scm`), join(dist, 'queries', `${language.id}.scm`));
  }

  // The table for tools outside the plugin (the coverage benchmark): extension or file name → language, language → grammar.
  const table = { byExtension: {}, byName: {}, grammars: {} };
  for (const l of LANGUAGES) {
    table.grammars[l.id] = l.grammar;
    for (const e of l.extensions) (e.startsWith('.') ? table.byExtension : table.byName)[e] = l.id;
  }
  writeFileSync(join(dist, 'languages.json'), `${JSON.stringify(table, null, 2)}\n`);

  console.log(`built ${join('dist', 'main.js')} (+ tree-sitter.wasm, ${LANGUAGES.length} grammars and their queries)`);
});
