import type { AnalyzeFile } from '@travsr/sdk';
import { SourceReadError, type FileResult, type ProgramContext } from '@travsr/sdk';
import { failedResult } from './failed-result.js';
import type { PhaseAFile } from './worker/worker-protocol.js';

/**
 * Reads the files of a request with the SDK's checks (inside the root, under the size
 * limit, UTF-8): the texts, and a failed result for each file that could not be read.
 */
export async function readRequestFiles(
  files: readonly AnalyzeFile[],
  ctx: Pick<ProgramContext, 'readFile'>,
): Promise<{ read: PhaseAFile[]; unreadable: FileResult[] }> {
  const read: PhaseAFile[] = [];
  const unreadable: FileResult[] = [];
  for (const f of files) {
    try {
      read.push({ path: f.path, language: f.language, text: (await ctx.readFile(f)).text });
    } catch (e) {
      unreadable.push(failedResult(f, e instanceof SourceReadError ? e.code : 'FILE_UNREADABLE', (e as Error).message));
    }
  }
  return { read, unreadable };
}
