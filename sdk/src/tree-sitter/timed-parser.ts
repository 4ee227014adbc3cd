import { Parser, type Language, type Tree } from 'web-tree-sitter';

/**
 * One web-tree-sitter parser for a language, reused for every file, that a pathological
 * file cannot stall or break:
 * - a parse running past `timeoutMs` is stopped (the parser is reset, so the next file starts
 *   clean) and fails that file;
 * - a grammar that throws out of the middle of a parse (a wasm import the runtime lacks) leaves
 *   its parser unusable: it is replaced, and the next file gets the new one;
 * - a new parser parses an empty text once, because some scanners (Swift's) recover from errors
 *   differently on a parser's very first parse than on every later one.
 *
 * @example
 * ```ts
 * const parser = new TimedParser(grammar.language, 'go (tree-sitter-go.wasm)');
 * const tree = parser.parse(file.text, file.path); // throws with the reason; caller deletes the tree
 * ```
 */
export class TimedParser {
  private parserValue: Parser;

  constructor(
    readonly language: Language,
    /** Names the grammar in errors: `bash grammar (tree-sitter-bash.wasm)`. */
    readonly label: string,
    readonly timeoutMs = 20_000,
  ) {
    this.parserValue = TimedParser.fresh(language);
  }

  private static fresh(language: Language): Parser {
    const parser = new Parser();
    parser.setLanguage(language);
    parser.parse('')?.delete();
    return parser;
  }

  /** The parser in use (replaced after a grammar threw). */
  get current(): Parser {
    return this.parserValue;
  }

  /**
   * Parses `text` (from `path`, for messages).
   * @throws Error when the grammar fails or the parse takes longer than the timeout; the file is left unanalyzed.
   */
  parse(text: string, path: string): Tree {
    const deadline = performance.now() + this.timeoutMs;
    const progressCallback = (() => performance.now() > deadline) as unknown as (state: unknown) => void;
    let tree: Tree | null;
    try {
      tree = this.parserValue.parse(text, null, { progressCallback });
    } catch (e) {
      this.parserValue.delete();
      this.parserValue = TimedParser.fresh(this.language);
      throw new Error(`${this.label} failed on ${path}: ${(e as Error).message}; the file is left unanalyzed`);
    }
    if (!tree) {
      this.parserValue.reset();
      throw new Error(
        `${this.label} parsing ${path} took longer than ${this.timeoutMs / 1000} s and was stopped; the file is left unanalyzed`,
      );
    }
    return tree;
  }

  /** Frees the parser. */
  delete(): void {
    this.parserValue.delete();
  }
}
