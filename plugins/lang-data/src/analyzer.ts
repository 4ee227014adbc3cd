import { LineIndex, strippedBomBytes, type FileAnalysis, type FileContext, type SourceFile } from '@travsr/sdk';
import { loadGrammar, type Grammar, type TreeSitterOptions } from '@travsr/sdk/tree-sitter';
import type { Tree } from 'web-tree-sitter';
import { emitGraph } from './emit.js';
import { formatOf, type DataFormat } from './formats.js';
import { readJson } from './json.js';
import type { ParsedData } from './model.js';
import { readToml } from './toml.js';
import { readXml } from './xml.js';
import { readYaml } from './yaml.js';

type TreeFormat = Exclude<DataFormat, 'xml'>;

/**
 * Where the grammars are: next to the bundle in a built plugin, anywhere in tests.
 *
 * @example
 * ```ts
 * createDataAnalyzer({ grammars: { json: new URL('./tree-sitter-json.wasm', import.meta.url), yaml, toml } });
 * ```
 */
export interface DataAnalyzerOptions extends TreeSitterOptions {
  /** The YAML grammar must be the build's patched copy (scripts/patch-yaml-imports.mjs). */
  grammars: Readonly<Record<TreeFormat, string | URL>>;
}

/** The hooks to spread into `runAnalyzer({...})`. */
export interface DataAnalyzer {
  /** Loads the three grammars; a missing or broken one fails `initialize` with the reason. */
  initialize(): Promise<void>;
  analyzeFile(file: SourceFile, ctx: Pick<FileContext, 'graph'>): Promise<FileAnalysis>;
}

const READERS: Readonly<Record<TreeFormat, (tree: Tree, positions: LineIndex, path: string) => ParsedData>> = {
  json: readJson,
  yaml: readYaml,
  toml: readToml,
};

/**
 * The data-file analyzer: picks the format by extension (then by the host's language), reads
 * the file (tree-sitter for JSON, YAML and TOML, saxes for XML) and emits its keys.
 * A file with syntax errors still gets the keys that were read, plus a `PARSE_ERRORS` warning.
 */
export function createDataAnalyzer(options: DataAnalyzerOptions): DataAnalyzer {
  const loaded = new Map<TreeFormat, Promise<Grammar>>();
  // web-tree-sitter links a grammar module through process-wide state: two loads at once
  // mix up their symbols ("bad export type for 'tree_sitter_yaml_external_scanner_create'"
  // while loading JSON). Loads run one after the other.
  let loading: Promise<unknown> = Promise.resolve();
  const grammar = (format: TreeFormat): Promise<Grammar> => {
    let g = loaded.get(format);
    if (!g) {
      g = loading.then(() => loadGrammar(options.grammars[format], options));
      loading = g.catch(() => undefined);
      // A failed load is retried on the next file rather than cached.
      g.catch(() => loaded.delete(format));
      loaded.set(format, g);
    }
    return g;
  };

  return {
    async initialize() {
      for (const format of Object.keys(READERS) as TreeFormat[]) await grammar(format);
    },
    async analyzeFile(file, { graph }) {
      const format = formatOf(file.path, file.language, file.text);
      const positions = new LineIndex(file.text, { bomBytes: strippedBomBytes(file.bytes, file.text) });
      if (format === 'xml') {
        emitGraph(graph, readXml(file.text, positions), { path: file.path, format, positions });
        return graph.build();
      }
      const g = await grammar(format);
      let tree: Tree;
      try {
        tree = g.parse(file.text);
      } catch (e) {
        // A parse that threw (a scanner reaching abort()) may leave its parser mid-parse, and
        // tree-sitter resumes an unfinished parse: the next file gets a new parser.
        loaded.delete(format);
        throw e;
      }
      try {
        emitGraph(graph, READERS[format](tree, positions, file.path), { path: file.path, format, positions });
      } finally {
        tree.delete();
      }
      return graph.build();
    },
  };
}
