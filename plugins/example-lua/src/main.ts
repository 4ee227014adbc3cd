// Entry point of the example Lua analyzer. Everything Lua-specific is in queries/tags.scm;
// the SDK does the protocol (runAnalyzer) and turns tags into graph nodes, edges and refs.
import { runAnalyzer } from '@travsr/sdk';
import { createTagsAnalyzer } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import tagsQuery from '../queries/tags.scm';

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  // The build copies the grammar next to the bundle: dist/tree-sitter-lua.wasm.
  ...createTagsAnalyzer({ grammar: new URL('./tree-sitter-lua.wasm', import.meta.url), query: tagsQuery }),
});
