import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FileGraphBuilder, type FileAnalysis } from '@travsr/sdk';
import { StructuralAnalyzer } from '../src/structural-analyzer.js';
import { languageOfPath } from '../src/languages.js';

export const pluginDir = fileURLToPath(new URL('..', import.meta.url));
export const inputDir = fileURLToPath(new URL('../snapshots/input/', import.meta.url));
export const distDir = fileURLToPath(new URL('../dist/', import.meta.url));
export const buildHint = 'build first: npm run build -w @travsr/plugin-lang-structural';

/** The analyzer as the built plugin runs it: grammars and queries from dist/. */
export function builtAnalyzer(): StructuralAnalyzer {
  return new StructuralAnalyzer({ grammarDir: distDir, queryDir: `${distDir}queries/`, treeSitterWasm: `${distDir}tree-sitter.wasm` });
}

/** Analyzes one file of snapshots/input in process, with the language the host would assign. */
export async function analyzeInput(analyzer: StructuralAnalyzer, path: string, text?: string): Promise<FileAnalysis> {
  const source = text ?? readFileSync(`${inputDir}${path}`, 'utf8');
  const language = languageOfPath(path)?.id ?? 'text';
  const graph = new FileGraphBuilder({ corpus: 'test.travsr.dev/structural', path, language });
  return analyzer.analyzeFile({ path, language, absolutePath: `${inputDir}${path}`, bytes: Buffer.from(source), text: source }, { graph });
}

/** `kind qualifiedName` of every definition (the file node left out). */
export function definitions(a: FileAnalysis): string[] {
  return a.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName ?? n.name}`);
}

/** `kind name <- source signature` of every ref (`<file>` for refs from the file). */
export function references(a: FileAnalysis): string[] {
  return (a.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`);
}
