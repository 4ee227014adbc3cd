// Runs the analyzer in-process on source text, the way the harness would call it, with the
// grammars from node_modules (the YAML one patched into a temporary file, as the build does).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Node, Range } from '@travsr/protocol';
import { FileGraphBuilder, type FileAnalysis } from '@travsr/sdk';
import { createDataAnalyzer, type DataAnalyzer } from '../../src/analyzer.js';
import { patchYamlImports } from '../../scripts/patch-yaml-imports.mjs';

const require = createRequire(import.meta.url);
export const GRAMMARS_DIR = join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out');

let patchedYaml: string | undefined;
/** The YAML grammar as the build ships it (made again when a test file's temporary directory went). */
export function patchedYamlGrammar(): string {
  if (!patchedYaml || !existsSync(patchedYaml)) {
    patchedYaml = join(mkdtempSync(join(tmpdir(), 'lang-data-')), 'tree-sitter-yaml.wasm');
    writeFileSync(patchedYaml, patchYamlImports(readFileSync(join(GRAMMARS_DIR, 'tree-sitter-yaml.wasm'))));
  }
  return patchedYaml;
}

export function newAnalyzer(): DataAnalyzer {
  return createDataAnalyzer({
    grammars: {
      json: join(GRAMMARS_DIR, 'tree-sitter-json.wasm'),
      yaml: patchedYamlGrammar(),
      toml: join(GRAMMARS_DIR, 'tree-sitter-toml.wasm'),
    },
  });
}

let shared: DataAnalyzer | undefined;
/** The grammar file `shared` loads YAML from (lazily): a new analyzer once that file is gone. */
let sharedYaml: string | undefined;
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Analyzes one file; `language` defaults to what the host would assign. */
export async function analyze(
  path: string,
  source: string | Uint8Array,
  language?: string,
  analyzer?: DataAnalyzer,
): Promise<FileAnalysis> {
  const yaml = patchedYamlGrammar();
  if (!shared || sharedYaml !== yaml) {
    shared = newAnalyzer();
    sharedYaml = yaml;
  }
  const a = analyzer ?? shared;
  const bytes = typeof source === 'string' ? new TextEncoder().encode(source) : source;
  const text = decoder.decode(bytes);
  const lang = language ?? defaultLanguage(path);
  const graph = new FileGraphBuilder({ corpus: 'test', path, language: lang });
  return a.analyzeFile({ path, language: lang, absolutePath: `/repo/${path}`, bytes, text }, { graph });
}

function defaultLanguage(path: string): string {
  if (/\.ya?ml$/.test(path)) return 'yaml';
  if (path.endsWith('.toml')) return 'toml';
  if (/\.jsonc?$/.test(path)) return 'json';
  return 'xml';
}

/** The key nodes by signature. */
export function keys(result: FileAnalysis): Map<string, Node> {
  return new Map(result.nodes.filter((n) => n.kind === 'key').map((n) => [n.vname.signature, n]));
}

/** `line:col-line:col`, as the snapshots print ranges. */
export function at(range: Range | undefined): string {
  return range ? `${range.startLine}:${range.startCol}-${range.endLine}:${range.endCol}` : '(none)';
}

/** Signature → `range` for every key node, for whole-file assertions. */
export function keyRanges(result: FileAnalysis): Record<string, string> {
  return Object.fromEntries([...keys(result)].map(([sig, n]) => [sig, at(n.range)]));
}

/** `parent signature → child signature` for every contains edge. */
export function containsEdges(result: FileAnalysis): string[] {
  return result.edges.filter((e) => e.kind === 'contains').map((e) => `${e.src.signature || '<file>'} -> ${e.dst.signature}`);
}
