import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileAnalysis, FileContext, SourceFile } from '@travsr/sdk';
import {
  collectTags,
  compileQuery,
  initTreeSitter,
  LineIndex,
  loadGrammar,
  parseErrorDiagnostic,
  tagsToGraph,
  TimedParser,
} from '@travsr/sdk/tree-sitter';
import type { Language, Query } from 'web-tree-sitter';
import { LANGUAGES, languageById, languageOfPath, type LanguageSpec } from './languages.js';

/**
 * Where the analyzer finds its files. In the built plugin all three are dist/; in tests
 * the grammars may come from dist/ and the queries from queries/.
 */
export interface AnalyzerResources {
  /** Directory holding `tree-sitter-<grammar>.wasm`. */
  grammarDir: string | URL;
  /** Directory holding `<language>.scm`. */
  queryDir: string | URL;
  /** web-tree-sitter's `tree-sitter.wasm`; default: next to the entry script, else web-tree-sitter's own. */
  treeSitterWasm?: string | URL;
  /** A parse taking longer than this fails its file instead of stalling the session. Default 20 000 ms. */
  parseTimeoutMs?: number;
}

/** A grammar ready to use: its language, one parser reused for every file, the compiled query. */
export interface LoadedLanguage {
  readonly spec: LanguageSpec;
  readonly language: Language;
  /** Stops slow parses; replaces its parser when a grammar throws. */
  readonly parser: TimedParser;
  readonly query: Query;
}

function toPath(p: string | URL): string {
  return p instanceof URL ? fileURLToPath(p) : p;
}

/**
 * The structural (Phase A) analyzer of many languages: it picks the grammar for each file,
 * loads it with its tags query the first time a file of that language arrives (so start-up
 * costs nothing per language), and turns the query's tags into definitions, `contains`
 * edges and unresolved refs with the SDK's `tagsToGraph`.
 */
export class StructuralAnalyzer {
  private readonly grammarDir: string;
  private readonly queryDir: string;
  private readonly parseTimeoutMs: number;
  private readonly loaded = new Map<string, Promise<LoadedLanguage>>();

  constructor(private readonly resources: AnalyzerResources) {
    this.grammarDir = toPath(resources.grammarDir);
    this.queryDir = toPath(resources.queryDir);
    this.parseTimeoutMs = resources.parseTimeoutMs ?? 20_000;
  }

  /**
   * Starts the tree-sitter runtime and checks that every grammar and query file is there,
   * so a broken installation fails `initialize` with the reason instead of every file.
   * Grammars themselves are loaded later, on first use.
   */
  async initialize(): Promise<void> {
    const missing = LANGUAGES.flatMap((l) => [join(this.grammarDir, l.grammar), join(this.queryDir, `${l.id}.scm`)]).filter(
      (p) => !existsSync(p),
    );
    if (missing.length > 0) {
      throw new Error(
        `lang-structural is incomplete: ${missing.join(', ')} missing; rebuild it (npm run build -w @travsr/plugin-lang-structural)`,
      );
    }
    await initTreeSitter(this.resources.treeSitterWasm === undefined ? {} : { treeSitterWasm: this.resources.treeSitterWasm });
  }

  /**
   * The language a file is parsed as: the host's language when this plugin serves it and
   * the file's extension does not claim another served language, else the one its
   * extension claims (a multi-language plugin may be handed its first declared language
   * by tools that cannot tell them apart).
   */
  languageFor(file: Pick<SourceFile, 'path' | 'language'>): LanguageSpec | undefined {
    const byPath = languageOfPath(file.path);
    const byHost = languageById(file.language);
    if (byHost && (!byPath || byPath === byHost)) return byHost;
    return byPath ?? byHost;
  }

  /** Loads (once) the grammar, a parser and the compiled query of a language. */
  load(spec: LanguageSpec): Promise<LoadedLanguage> {
    let entry = this.loaded.get(spec.id);
    if (!entry) {
      const attempt = (async () => {
        const grammar = await loadGrammar(join(this.grammarDir, spec.grammar), this.treeSitterOptions());
        const query = compileQuery(
          grammar.language,
          readFileSync(join(this.queryDir, `${spec.id}.scm`), 'utf8'),
          `${spec.id} (${spec.grammar})`,
        );
        const parser = new TimedParser(grammar.language, `the ${spec.id} grammar (${spec.grammar})`, this.parseTimeoutMs);
        return { spec, language: grammar.language, parser, query };
      })();
      // A failed load is retried with the next file of the language rather than cached.
      attempt.catch(() => {
        if (this.loaded.get(spec.id) === attempt) this.loaded.delete(spec.id);
      });
      this.loaded.set(spec.id, attempt);
      entry = attempt;
    }
    return entry;
  }

  /** Ids of the languages loaded so far. */
  get loadedLanguages(): string[] {
    return [...this.loaded.keys()].sort();
  }

  /** Parses one file and turns its tags into its Phase A graph (with a `PARSE_ERRORS` warning if the syntax is broken). */
  async analyzeFile(file: SourceFile, ctx: Pick<FileContext, 'graph'>): Promise<FileAnalysis> {
    const spec = this.languageFor(file);
    if (!spec) {
      throw new Error(
        `lang-structural has no grammar for ${file.path} (language ${file.language}); it serves ${LANGUAGES.map((l) => l.id).join(', ')}`,
      );
    }
    const lang = await this.load(spec);
    const tree = lang.parser.parse(file.text, file.path);
    try {
      const lines = new LineIndex(file.text);
      tagsToGraph(collectTags(lang.query, tree), ctx.graph, { text: file.text, lines });
      const diagnostic = parseErrorDiagnostic(tree, lines);
      if (diagnostic) ctx.graph.diagnostic(diagnostic);
    } finally {
      tree.delete();
    }
    return ctx.graph.build();
  }

  private treeSitterOptions() {
    return this.resources.treeSitterWasm === undefined ? {} : { treeSitterWasm: this.resources.treeSitterWasm };
  }
}
