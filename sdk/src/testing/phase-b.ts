// Runs an analyzer's whole-program pass in process, on a directory, as the SDK harness would for
// a Phase B request: for unit tests of a Phase B that need no host.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnalyzeFile } from '@travsr/protocol';
import { FileGraphBuilder } from '../graph-builder.js';
import type { FileResult, ProgramContext, SessionCapabilities, SessionInfo } from '../definition.js';

/** What {@link runPhaseB} needs of an analyzer (a `ScipAnalyzer`, or hooks shaped like it). */
export interface PhaseBAnalyzer {
  initialize(session: Pick<SessionInfo, 'options'>): Promise<SessionCapabilities | void>;
  analyze(files: readonly AnalyzeFile[], ctx: ProgramContext): AsyncIterable<FileResult>;
}

/** Options of {@link runPhaseB}. */
export interface PhaseBRun {
  /** `initialize.options` (e.g. `{ tools: { 'scip-ruby': '/bin/scip-ruby' } }`). */
  readonly options?: Record<string, unknown>;
  readonly corpus?: string;
  /** Receives every log line. */
  readonly log?: (message: string) => void;
  readonly signal?: AbortSignal;
}

/**
 * A {@link ProgramContext} over the files of `root` (read whole, no size limit), with builders
 * that mark their edges `phase-b` as the harness does.
 */
export function programContextFor(root: string, run: PhaseBRun = {}): ProgramContext {
  const corpus = run.corpus ?? 'test.travsr.dev/phase-b';
  return {
    root,
    corpus,
    options: run.options ?? {},
    phases: ['A', 'B'],
    phase: 'B',
    signal: run.signal ?? new AbortController().signal,
    changed: [],
    log: (_level, message) => run.log?.(message),
    async readFile(file: AnalyzeFile) {
      const bytes = await readFile(join(root, file.path));
      return { path: file.path, language: file.language, absolutePath: join(root, file.path), bytes, text: bytes.toString('utf8') };
    },
    graphFor: (file: AnalyzeFile) => new FileGraphBuilder({ corpus, path: file.path, language: file.language, provenance: 'phase-b' }),
  };
}

/**
 * Initializes `analyzer` with `run.options` and runs its Phase B on `files` of `root`: the
 * results by path, and what `initialize` answered.
 *
 * @example
 * ```ts
 * const { results } = await runPhaseB(analyzer, repo, [{ path: 'lib/cart.rb', language: 'ruby' }], { options: { tools } });
 * ```
 */
export async function runPhaseB(
  analyzer: PhaseBAnalyzer,
  root: string,
  files: readonly AnalyzeFile[],
  run: PhaseBRun = {},
): Promise<{ results: Map<string, FileResult>; capabilities: SessionCapabilities | void }> {
  const capabilities = await analyzer.initialize({ options: run.options ?? {} });
  const results = new Map<string, FileResult>();
  for await (const r of analyzer.analyze(files, programContextFor(root, run))) results.set(r.path, r);
  return { results, capabilities };
}
