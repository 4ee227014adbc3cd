/**
 * tree-sitter-python, loaded once per session: parses a file and reads it into a
 * {@link ModuleIR}. The tree is freed before returning; only the IR is kept.
 */
import { initTreeSitter, LineIndex, loadGrammar, TimedParser } from '@travsr/sdk/tree-sitter';
import { extractModule } from './extract.js';
import type { ModuleIR } from './module-ir.js';

/** Where the grammar and the runtime come from (dist/ in the built plugin). */
export interface PythonSyntaxResources {
  /** `tree-sitter-python.wasm` (tree-sitter-wasms@0.1.13). */
  grammar: string | URL;
  /** web-tree-sitter's `tree-sitter.wasm`; default: web-tree-sitter's own. */
  treeSitterWasm?: string | URL;
  /** A parse taking longer than this fails its file. Default 20 000 ms. */
  parseTimeoutMs?: number;
}

/** One reused parser for Python. */
export class PythonSyntax {
  private parser: TimedParser | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly resources: PythonSyntaxResources) {}

  /** Loads the runtime and the grammar (once: later calls, also while it loads, share the first). */
  initialize(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<void> {
    await initTreeSitter(this.resources.treeSitterWasm === undefined ? {} : { treeSitterWasm: this.resources.treeSitterWasm });
    const grammar = await loadGrammar(this.resources.grammar);
    this.parser = new TimedParser(
      grammar.language,
      'the python grammar (tree-sitter-python.wasm)',
      this.resources.parseTimeoutMs ?? 20_000,
    );
  }

  /**
   * Parses a module.
   * @throws Error when the parse takes longer than the timeout, or the grammar fails.
   */
  read(path: string, text: string): ModuleIR {
    if (!this.parser) throw new Error('PythonSyntax.initialize() was not called');
    const tree = this.parser.parse(text, path);
    try {
      return extractModule(tree, text, new LineIndex(text), path);
    } finally {
      tree.delete();
    }
  }
}
