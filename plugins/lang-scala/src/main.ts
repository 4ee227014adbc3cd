// Entry point of lang-scala: Scala Phase A from tree-sitter, Phase B from scip-java (which builds
// the project with sbt) when the host found it, a JDK and sbt on its PATH
// (initialize.options.tools); without them the session runs Phase A only and says why
// (initialize.unavailable).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import scalaQuery from '../queries/scala.scm';
import { scipJavaSbt } from './scip-java-sbt-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'scala',
  grammar: new URL('./tree-sitter-scala.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: scalaQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipJavaSbt, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
