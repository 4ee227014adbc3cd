import {
  assertSchema,
  errorCode,
  GraphFileParamsSchema,
  ProtocolErrorCode,
  type AnalyzeFile,
  type AnalyzeResult,
  type Diagnostic,
  type GraphFileParams,
  type RequestId,
} from '@travsr/protocol';
import type { Connection } from '@travsr/protocol/node';
import type { FileAnalysis, Phase } from './definition.js';

const MAX_DIAGNOSTICS = 10_000;

/**
 * Turns analyzer output into `graph/file` notifications, one per file: checks it first
 * (schema, every node at the file's path, frame size) so that an analyzer bug fails one
 * file with a diagnostic instead of a frame the host rejects, and counts what was sent.
 */
export class FileEmitter {
  readonly counts: AnalyzeResult = { files: 0, failed: 0, nodes: 0, edges: 0 };

  constructor(
    private readonly conn: Connection,
    private readonly requestId: RequestId,
    private readonly phase: Phase,
    private readonly warn: (line: string) => void,
  ) {}

  /** Sends a file as not analyzed, with one error diagnostic. */
  failed(file: AnalyzeFile, code: string, message: string): Promise<void> {
    return this.send(
      this.params(file, 'failed', { nodes: [], edges: [], diagnostics: [{ severity: 'error', code, message: message.slice(0, 4096) }] }),
    );
  }

  /** Sends an analyzed file (or a failed one the analyzer reported itself). */
  async emit(file: AnalyzeFile, status: 'ok' | 'failed', analysis: FileAnalysis): Promise<void> {
    let params: GraphFileParams;
    try {
      params = this.params(file, status, analysis);
      assertSchema(GraphFileParamsSchema, params, `graph of ${file.path}`);
      const stray = params.nodes.find((n) => n.vname.path !== file.path);
      if (stray) throw new Error(`node "${stray.name}" is addressed at "${stray.vname.path}", not at the analyzed file "${file.path}"`);
    } catch (e) {
      const message = `the analyzer produced an invalid graph for this file: ${(e as Error).message}`;
      this.warn(`${file.path}: ${message}`);
      return this.failed(file, 'INVALID_ANALYZER_OUTPUT', message);
    }
    try {
      await this.send(params);
    } catch (e) {
      if (errorCode(e) !== ProtocolErrorCode.FrameTooLarge) throw e;
      const message = `the graph of this file does not fit in one frame (${(e as Error).message}); it was not sent`;
      this.warn(`${file.path}: ${message}`);
      await this.failed(file, 'FILE_GRAPH_TOO_LARGE', message);
    }
  }

  private params(file: AnalyzeFile, status: 'ok' | 'failed', a: FileAnalysis): GraphFileParams {
    let diagnostics: Diagnostic[] = a.diagnostics ?? [];
    if (diagnostics.length > MAX_DIAGNOSTICS) {
      const omitted = diagnostics.length - (MAX_DIAGNOSTICS - 1);
      diagnostics = [
        ...diagnostics.slice(0, MAX_DIAGNOSTICS - 1),
        { severity: 'info', code: 'DIAGNOSTICS_TRUNCATED', message: `${omitted} more diagnostics were omitted` },
      ];
    }
    const params: GraphFileParams = {
      requestId: this.requestId,
      path: file.path,
      language: file.language,
      phase: this.phase,
      status,
      nodes: a.nodes,
      edges: a.edges,
      diagnostics,
    };
    if (a.refs !== undefined && a.refs.length > 0) params.refs = a.refs;
    if (a.interface !== undefined) params.interface = a.interface;
    return params;
  }

  private async send(params: GraphFileParams): Promise<void> {
    // notify() encodes synchronously: an oversized frame throws before anything is written.
    await this.conn.notify('graph/file', params);
    this.counts.files++;
    if (params.status === 'failed') this.counts.failed++;
    this.counts.nodes += params.nodes.length;
    this.counts.edges += params.edges.length;
  }
}
