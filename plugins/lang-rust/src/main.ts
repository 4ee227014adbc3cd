// Entry point of lang-rust: Rust Phase A from tree-sitter-rust, Phase B from the plugin's
// own whole-program resolver over the crate graph (no external tool needed).
import './v8-tuning.js';
import { runAnalyzer } from '@travsr/sdk';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { RustAnalyzer } from './analyzer.js';

// The build copies the runtime and the grammar next to the bundle.
const analyzer = new RustAnalyzer({
  grammar: new URL('./tree-sitter-rust.wasm', import.meta.url),
  treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url),
});

analyzer.preload();

await runAnalyzer({
  id: manifest.id,
  version: manifest.version,
  languages: manifest.languages,
  phases: manifest.phases,
  // One session may serve many runs (the daemon's): it is told what changed in between and
  // reads those files again (RustAnalyzer.noteChanged).
  incremental: true,
  initialize: (session) => analyzer.initialize(session),
  analyzeFile: (file, ctx) => analyzer.analyzeFile(file, ctx),
  analyze: (files, ctx) => analyzer.analyze(files, ctx),
});
