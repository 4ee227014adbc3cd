import type { FileResult } from '@travsr/sdk';
import { describe, expect, it } from 'vitest';
import { phaseAOfRequest } from '../src/phase-a-request.js';
import type { PhaseAFile } from '../src/worker/worker-protocol.js';

const files: PhaseAFile[] = ['a.ts', 'b.ts', 'c.ts'].map((path) => ({ path, language: 'typescript', text: '' }));
const result = (f: PhaseAFile, by: string): FileResult => ({
  path: f.path,
  nodes: [],
  edges: [],
  diagnostics: [{ severity: 'info', message: by }],
});
const onThisThread = function* (fs: readonly PhaseAFile[]) {
  for (const f of fs) yield result(f, 'main');
};
const collect = async (it: AsyncIterable<FileResult>) => {
  const out: string[] = [];
  for await (const r of it) out.push(`${r.path} ${r.diagnostics![0]!.message}`);
  return out;
};

describe('phaseAOfRequest', () => {
  it('runs on the worker when there is one, else on this thread', async () => {
    const logs: string[] = [];
    const ctx = { signal: new AbortController().signal, log: (_: string, m: string) => logs.push(m) };
    const onWorker = async function* (fs: readonly PhaseAFile[]) {
      for (const f of fs) yield result(f, 'worker');
    };
    expect(await collect(phaseAOfRequest(files, onWorker, onThisThread, ctx))).toEqual(['a.ts worker', 'b.ts worker', 'c.ts worker']);
    expect(await collect(phaseAOfRequest(files, undefined, onThisThread, ctx))).toEqual(['a.ts main', 'b.ts main', 'c.ts main']);
    expect(logs).toEqual([]);
  });

  it('finishes on this thread the files a dying worker did not report, and says so', async () => {
    const logs: string[] = [];
    const ctx = { signal: new AbortController().signal, log: (_: string, m: string) => logs.push(m) };
    const dying = async function* (fs: readonly PhaseAFile[]) {
      yield result(fs[0]!, 'worker');
      throw new Error('the analysis worker exited (code 1)');
    };
    expect(await collect(phaseAOfRequest(files, dying, onThisThread, ctx))).toEqual(['a.ts worker', 'b.ts main', 'c.ts main']);
    expect(logs).toEqual(['the analysis worker exited (code 1); Phase A of the remaining files runs on the main thread']);
  });

  it('does not carry on after the host cancelled the request', async () => {
    const abort = new AbortController();
    const ctx = { signal: abort.signal, log: () => {} };
    const cancelled = async function* (fs: readonly PhaseAFile[]) {
      yield result(fs[0]!, 'worker');
      abort.abort();
      throw new Error('cancelled');
    };
    await expect(collect(phaseAOfRequest(files, cancelled, onThisThread, ctx))).rejects.toThrow('cancelled');
  });
});
