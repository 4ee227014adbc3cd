/**
 * tree-sitter-rust, loaded once per session: parses a file into a syntax tree, and reads it
 * into a {@link FileIR} (the tree freed unless the caller asks to walk its bodies).
 */
import { initTreeSitter, LineIndex, loadGrammar, TimedParser } from '@travsr/sdk/tree-sitter';
import type { Tree } from 'web-tree-sitter';
import { type Extraction, extractFile, type MacroLookup } from './extract.js';
import type { FileIR } from './file-ir.js';
import { leadingInnerAttributes, withoutLeadingAttributes } from './leading-attribute.js';

/** Where the grammar and the runtime come from (dist/ in the built plugin). */
export interface RustSyntaxResources {
  /** `tree-sitter-rust.wasm` (tree-sitter-wasms@0.1.13). */
  grammar: string | URL;
  /** web-tree-sitter's `tree-sitter.wasm`; default: web-tree-sitter's own. */
  treeSitterWasm?: string | URL;
  /** A parse taking longer than this fails its file. Default 20 000 ms. */
  parseTimeoutMs?: number;
}

/** One reused parser for Rust. */
export class RustSyntax {
  private parser: TimedParser | undefined;
  private loading: Promise<void> | undefined;

  constructor(private readonly resources: RustSyntaxResources) {}

  /** Loads the runtime and the grammar (once: later calls, also while it loads, share the first). */
  initialize(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<void> {
    await initTreeSitter(this.resources.treeSitterWasm === undefined ? {} : { treeSitterWasm: this.resources.treeSitterWasm });
    const grammar = await loadGrammar(this.resources.grammar);
    this.parser = new TimedParser(grammar.language, 'the rust grammar (tree-sitter-rust.wasm)', this.resources.parseTimeoutMs ?? 20_000);
  }

  /** Parses text into a tree the caller must `delete()`. @throws Error when the parse times out or the grammar is not loaded. */
  parse(text: string, path: string): Tree {
    if (!this.parser) throw new Error('RustSyntax.initialize() was not called');
    return this.parser.parse(text, path);
  }

  /**
   * A whole file's tree (a build script's): undefined when it cannot be parsed. The caller
   * deletes it. Leading `#![…]` attributes are blanked, as the grammar would read them as a shebang.
   */
  parseScript(text: string): Tree | undefined {
    try {
      return this.parse(withoutLeadingAttributes(text, leadingInnerAttributes(text)), 'build.rs');
    } catch {
      return undefined;
    }
  }

  /** A file's IR (the tree is freed). */
  read(path: string, text: string): FileIR {
    const { ir, tree, extraTrees } = this.readWithBodies(path, text);
    tree.delete();
    for (const t of extraTrees) t.delete();
    return ir;
  }

  /**
   * A file's IR and its function bodies, for use while the returned trees live (the caller
   * deletes `tree` and `extraTrees`); with the program's macros (`foreign`) in Phase B.
   */
  readWithBodies(path: string, text: string, foreign?: MacroLookup): Extraction & { tree: Tree } {
    // A first `#![…]` would be lexed as a shebang (see leading-attribute.ts): the grammar reads without them.
    const attrs = leadingInnerAttributes(text);
    const tree = this.parse(withoutLeadingAttributes(text, attrs), path);
    try {
      const extraction = extractFile(tree, text, new LineIndex(text), path, (t) => this.parse(t, path), foreign);
      if (attrs.length > 0) extraction.ir.innerAttrs = [...attrs.map((a) => a.content), ...(extraction.ir.innerAttrs ?? [])];
      return { ...extraction, tree };
    } catch (e) {
      tree.delete();
      throw e;
    }
  }
}
