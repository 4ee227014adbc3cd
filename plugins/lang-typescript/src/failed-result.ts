import type { FileResult } from '@travsr/sdk';

/** The result of a file that was not analyzed: no graph, one error diagnostic saying why. */
export function failedResult(f: { path: string }, code: string, message: string): FileResult {
  return { path: f.path, status: 'failed', nodes: [], edges: [], diagnostics: [{ severity: 'error', code, message }] };
}
