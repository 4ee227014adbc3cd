// Entry point of the data-file analyzer: JSON, YAML, TOML and XML files with their keys.
// The build copies the grammars next to the bundle (dist/), the YAML one patched.
import { runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { createDataAnalyzer } from './analyzer.js';

const analyzer = createDataAnalyzer({
  grammars: {
    json: new URL('./tree-sitter-json.wasm', import.meta.url),
    yaml: new URL('./tree-sitter-yaml.wasm', import.meta.url),
    toml: new URL('./tree-sitter-toml.wasm', import.meta.url),
  },
});

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  initialize: () => analyzer.initialize(),
  analyzeFile: (file, ctx) => analyzer.analyzeFile(file, ctx),
});
