// Messages between the plugin's main thread (the protocol, Phase A) and its Phase B worker
// thread (programs and the type checker). The worker starts checking the files Phase A sees
// while Phase A is still running, so the two phases overlap on two cores.
import type { AnalyzeFile, LogLevel } from '@travsr/protocol';
import type { FileResult } from '@travsr/sdk';

/** `workerData` of the Phase B worker. */
export interface PhaseBWorkerData {
  role: 'phase-b';
  root: string;
  corpus: string;
  /** Directory holding TypeScript's lib.*.d.ts. */
  libDir: string;
}

/** Main thread → worker. */
export type ToWorker =
  /** Files Phase A analyzed: Phase B will be asked for them, so check them when idle. */
  | { t: 'prefetch'; files: AnalyzeFile[] }
  /** A Phase B request: one result per file, in any order, then `done`. */
  | { t: 'analyze'; id: number; files: AnalyzeFile[] }
  | { t: 'cancel'; id: number };

/** Worker → main thread. */
export type FromWorker =
  | { t: 'result'; id: number; result: FileResult }
  | { t: 'done'; id: number }
  | { t: 'failed'; id: number; message: string }
  | { t: 'log'; level: LogLevel; message: string };
