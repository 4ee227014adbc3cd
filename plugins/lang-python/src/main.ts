// Entry point of lang-python: Python Phase A from tree-sitter-python, Phase B from the
// plugin's own whole-program resolver (no external tool needed).
import { runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { PythonAnalyzer } from './analyzer.js';

// The build copies the runtime and the grammar next to the bundle.
const analyzer = new PythonAnalyzer({
  grammar: new URL('./tree-sitter-python.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
});

analyzer.preload();

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  // One session may serve many runs (the daemon's): it is told what changed in between and
  // reads those modules again (PythonAnalyzer.noteChanged).
  incremental: true,
  initialize: (session) => analyzer.initialize(session),
  analyzeFile: (file, ctx) => analyzer.analyzeFile(file, ctx),
  analyze: (files, ctx) => analyzer.analyze(files, ctx),
  shutdown: () => analyzer.shutdown(),
});
