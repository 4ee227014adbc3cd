// Messages between the plugin's main thread (the protocol) and its analysis worker thread
// (parser, programs and type checker). When the host will ask for Phase B, both phases run
// on the worker: each file is parsed once, for Phase A, and the program takes that tree
// over; the main thread reads files and encodes frames meanwhile.
import type { AnalyzeFile, LogLevel } from '@travsr/sdk';
import type { FileResult } from '@travsr/sdk';

/** `workerData` of the analysis worker. */
export interface AnalysisWorkerData {
  role: 'analysis';
  root: string;
  corpus: string;
  /** Directory holding TypeScript's lib.*.d.ts. */
  libDir: string;
}

/** A file of a Phase A request, read by the main thread. */
export interface PhaseAFile extends AnalyzeFile {
  text: string;
}

/** Main thread → worker. */
export type ToWorker =
  /** Phase A of files the main thread read: one result per file, in order, then `done`. */
  | { t: 'phase-a'; id: number; files: PhaseAFile[] }
  /** A Phase B request: one result per file, in any order, then `done`. */
  | { t: 'phase-b'; id: number; files: AnalyzeFile[] }
  | { t: 'cancel'; id: number }
  /** Repository paths written, created or deleted since the previous request (`analyze.params.changed`). */
  | { t: 'changed'; paths: string[] };

/** Worker → main thread. */
export type FromWorker =
  | { t: 'result'; id: number; result: FileResult }
  | { t: 'done'; id: number }
  | { t: 'failed'; id: number; message: string }
  | { t: 'log'; level: LogLevel; message: string };
