/**
 * Runs the analyzer in process on a project written to a temp directory: Phase A on every
 * file, then Phase B on every file, the way the host drives a session. Edges come back as
 * readable strings (`src/lib.rs:Parser::parse -calls-> src/lexer.rs:Lexer::next`).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic, Edge, Node } from '@travsr/protocol';
import { FileGraphBuilder } from '@travsr/sdk';
import { RustAnalyzer } from '../../src/analyzer.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The grammar as the build copies it (tree-sitter-wasms@0.1.13). */
export const GRAMMAR = join(here, '..', '..', '..', '..', 'node_modules', 'tree-sitter-wasms', 'out', 'tree-sitter-rust.wasm');

export interface ProjectResult {
  root: string;
  /** Phase B nodes per file. */
  nodes: Map<string, Node[]>;
  /** Non-contains Phase B edges, as `src -kind-> dst` with `path:signature` ends. */
  edges: string[];
  /** Those of {@link edges} with provenance `scip` (the rust-analyzer upgrade). */
  scipEdges: string[];
  /** Phase A refs per file, as `kind name`. */
  refs: Map<string, string[]>;
  diagnostics: Map<string, Diagnostic[]>;
  failed: string[];
  logs: string[];
}

/** Writes `files` (path → text) under a new temp directory. */
export function writeProject(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lang-rust-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const end = (v: Edge['src']) => `${v.path}:${v.signature}`;

/** Analyzes `requested` (default: every .rs file of `files`) in both phases. */
export async function analyzeProject(
  files: Record<string, string>,
  requested?: string[],
  existingRoot?: string,
  options: Record<string, unknown> = {},
): Promise<ProjectResult> {
  const root = existingRoot ?? writeProject(files);
  const paths = (requested ?? Object.keys(files).filter((p) => /\.rs$/.test(p))).sort();
  const analyzer = new RustAnalyzer({ grammar: GRAMMAR });
  await analyzer.initialize({ root, phases: ['A', 'B'], options });
  const result: ProjectResult = {
    root,
    nodes: new Map(),
    edges: [],
    scipEdges: [],
    refs: new Map(),
    diagnostics: new Map(),
    failed: [],
    logs: [],
  };
  for (const path of paths) {
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'rust' });
    const a = analyzer.analyzeFile({ path, language: 'rust', text: readFileSync(join(root, path), 'utf8') } as never, { graph, root });
    result.refs.set(
      path,
      (a.refs ?? []).map((r) => `${r.kind} ${r.name}`),
    );
  }
  const ctx = {
    root,
    corpus: 'test',
    options,
    phases: ['A', 'B'] as const,
    changed: [] as string[],
    signal: new AbortController().signal,
    log: (_level: string, message: string) => void result.logs.push(message),
    readFile: async (f: { path: string; language: string }) => ({
      path: f.path,
      language: f.language,
      text: readFileSync(join(root, f.path), 'utf8'),
    }),
    graphFor: (f: { path: string; language: string }) =>
      new FileGraphBuilder({ corpus: 'test', path: f.path, language: 'rust', provenance: 'phase-b' }),
  };
  for await (const r of analyzer.analyze(
    paths.map((path) => ({ path, language: 'rust' })),
    ctx as never,
  )) {
    if (r.status === 'failed') result.failed.push(r.path);
    result.nodes.set(r.path, r.nodes);
    result.diagnostics.set(r.path, r.diagnostics ?? []);
    for (const e of r.edges) {
      if (e.kind === 'contains') continue;
      result.edges.push(`${end(e.src)} -${e.kind}-> ${end(e.dst)}`);
      if (e.provenance === 'scip') result.scipEdges.push(`${end(e.src)} -${e.kind}-> ${end(e.dst)}`);
    }
  }
  return result;
}

/** The `calls` edges of a result. */
export function calls(r: ProjectResult): string[] {
  return r.edges.filter((e) => e.includes(' -calls-> ')).sort();
}
