// Entry point of lang-csharp: C# Phase A from tree-sitter, Phase B from scip-dotnet when the host
// found it and the .NET SDK (`dotnet`) on its PATH (initialize.options.tools); without them the
// session runs Phase A only and says why (initialize.unavailable).
import { filesOfManifest, languageOfFiles, runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import csharpQuery from '../queries/csharp.scm';
import { scipDotnet } from './scip-dotnet-indexer.js';

// The build copies the runtime and the grammar next to the bundle.
const syntax = new TagsSyntax({
  language: 'csharp',
  grammar: new URL('./tree-sitter-c_sharp.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
  query: csharpQuery,
});
const analyzer = new ScipAnalyzer(syntax, scipDotnet, { languageOf: languageOfFiles(filesOfManifest(manifest)) });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
