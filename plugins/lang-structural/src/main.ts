// Entry point of lang-structural: one sidecar, many tree-sitter grammars. Everything
// language-specific is in queries/<language>.scm and the table in languages.ts; the SDK does
// the protocol (runAnalyzer) and turns tags into nodes, edges and refs (tagsToGraph).
import { runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { StructuralAnalyzer } from './structural-analyzer.js';

// The build puts the bundle, tree-sitter.wasm, every grammar and queries/ into dist/.
const dist = new URL('.', import.meta.url);
const analyzer = new StructuralAnalyzer({
  grammarDir: dist,
  queryDir: new URL('./queries/', dist),
  treeSitterWasm: new URL('./tree-sitter.wasm', dist),
});

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  initialize: () => analyzer.initialize(),
  analyzeFile: (file, ctx) => analyzer.analyzeFile(file, ctx),
});
