// Entry point of lang-clang: C and C++ Phase A from tree-sitter, Phase B from scip-clang when
// the host found it on its PATH (initialize.options.tools) and the repository has a
// compile_commands.json; without it the session runs Phase A only and says why.
import { runAnalyzer } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { SyntaxByLanguage, TagsSyntax } from '@travsr/sdk/tree-sitter';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import cQuery from '../queries/c.scm';
import cppQuery from '../queries/cpp.scm';
import { languageOf } from './languages.js';
import { scipClang } from './scip-clang-indexer.js';

// The build copies the runtime and the grammars next to the bundle.
const treeSitterWasm = new URL('./tree-sitter.wasm', import.meta.url);
const syntax = new SyntaxByLanguage({
  c: new TagsSyntax({ language: 'c', grammar: new URL('./tree-sitter-c.wasm', import.meta.url), treeSitterWasm, query: cQuery }),
  cpp: new TagsSyntax({ language: 'cpp', grammar: new URL('./tree-sitter-cpp.wasm', import.meta.url), treeSitterWasm, query: cppQuery }),
});
const analyzer = new ScipAnalyzer(syntax, scipClang, { languageOf });

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  ...analyzer.hooks(),
});
