// Entry point of lang-java: Java Phase A from tree-sitter, Phase B from scip-java when the host
// found it and a JDK on its PATH (initialize.options.tools); without them the session runs Phase
// A only and says why (initialize.unavailable). The plugin's cache directory (constraints.cache)
// reaches scip-java's environment through the SDK (ScipProjectRun.cacheDir).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import javaQuery from '../queries/java.scm';
import { scipJava } from './scip-java-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'java',
  grammar: new URL('./tree-sitter-java.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: javaQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipJava, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
