import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Tree } from 'web-tree-sitter';

/**
 * Options of {@link initTreeSitter} and {@link loadGrammar}.
 *
 * @example
 * ```ts
 * await loadGrammar(grammarPath, { treeSitterWasm: '/plugin/dist/tree-sitter.wasm' });
 * ```
 */
export interface TreeSitterOptions {
  /**
   * Where web-tree-sitter's own `tree-sitter.wasm` is. Default: next to the running entry
   * script (where a plugin's build copies it), else next to the web-tree-sitter module.
   */
  treeSitterWasm?: string | URL;
}

/**
 * A loaded grammar and a parser for it.
 *
 * @example
 * ```ts
 * const tree = grammar.parse(text);
 * try { walk(tree.rootNode); } finally { tree.delete(); }
 * ```
 */
export interface Grammar {
  /** The web-tree-sitter language, for queries. */
  readonly language: Language;
  /** Where the grammar was loaded from. */
  readonly source: string;
  /**
   * Parses source text. The caller owns the tree and must `delete()` it when done
   * (trees live in wasm memory, not on the JS heap).
   * @throws Error when the parser gives up (it does not for ordinary syntax errors).
   */
  parse(text: string): Tree;
}

let initialized: Promise<void> | undefined;

function toPath(p: string | URL): string {
  return p instanceof URL ? fileURLToPath(p) : p.startsWith('file:') ? fileURLToPath(p) : p;
}

/**
 * Initializes web-tree-sitter once per process (later calls return the same promise).
 * {@link loadGrammar} calls it; call it yourself only to pass options first.
 *
 * @example
 * ```ts
 * await initTreeSitter({ treeSitterWasm: new URL('./tree-sitter.wasm', import.meta.url) });
 * ```
 */
export function initTreeSitter(options: TreeSitterOptions = {}): Promise<void> {
  initialized ??= (async () => {
    const explicit = options.treeSitterWasm === undefined ? undefined : toPath(options.treeSitterWasm);
    if (explicit !== undefined && !existsSync(explicit)) {
      throw new Error(
        `tree-sitter runtime not found at ${explicit}: copy web-tree-sitter's tree-sitter.wasm there (a plugin build copies it next to its bundle)`,
      );
    }
    const entry = process.argv[1];
    const nextToEntry = entry ? join(dirname(entry), 'tree-sitter.wasm') : undefined;
    const locateFile = (file: string, scriptDirectory: string): string => {
      if (file === 'tree-sitter.wasm') {
        if (explicit !== undefined) return explicit;
        if (nextToEntry !== undefined && existsSync(nextToEntry)) return nextToEntry;
      }
      return scriptDirectory + file;
    };
    await Parser.init({ locateFile } as Parameters<typeof Parser.init>[0]);
  })();
  const current = initialized;
  current.catch(() => {
    if (initialized === current) initialized = undefined;
  });
  return current;
}

/**
 * Loads a tree-sitter grammar compiled to wasm (e.g. from `tree-sitter-wasms/out/`, or
 * copied next to a plugin's bundle) and returns it with a reusable parser.
 *
 * @throws Error naming the path when the file is missing or is not a compatible grammar.
 * @example
 * ```ts
 * const lua = await loadGrammar(new URL('./tree-sitter-lua.wasm', import.meta.url));
 * const tree = lua.parse('local x = 1');
 * try { console.error(tree.rootNode.type); } finally { tree.delete(); } // "chunk"
 * ```
 */
export async function loadGrammar(wasm: string | URL, options: TreeSitterOptions = {}): Promise<Grammar> {
  await initTreeSitter(options);
  const source = toPath(wasm);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(source);
  } catch (e) {
    throw new Error(
      `grammar not found at ${source} (${(e as { code?: string }).code ?? (e as Error).message}): check the path, or rebuild the plugin so its build copies the grammar .wasm next to the bundle`,
    );
  }
  let language: Language;
  try {
    language = await Language.load(bytes);
  } catch (e) {
    throw new Error(
      `cannot load the grammar ${source}: ${(e as Error).message}. web-tree-sitter 0.25 loads grammars of ABI 13–15 (e.g. tree-sitter-wasms@0.1.13)`,
    );
  }
  const parser = new Parser();
  parser.setLanguage(language);
  return {
    language,
    source,
    parse(text: string): Tree {
      const tree = parser.parse(text);
      if (!tree) throw new Error(`tree-sitter could not parse the input with ${source}`);
      return tree;
    },
  };
}
