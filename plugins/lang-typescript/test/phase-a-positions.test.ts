// Phase A's ranges come from the SDK's LineIndex, given TypeScript's own line starts: the
// rows a reader of the file sees in an editor that follows TypeScript, columns in UTF-8 bytes.
import { describe, expect, it } from 'vitest';
import { FileGraphBuilder } from '@travsr/sdk';
import { analyzePhaseA } from '../src/phase-a.js';

function definitions(text: string): Record<string, string> {
  const path = 'src/a.ts';
  const graph = new FileGraphBuilder({ corpus: 'c', path, language: 'typescript' });
  const out: Record<string, string> = {};
  for (const n of analyzePhaseA({ path, text }, graph).nodes) {
    if (n.kind === 'file') continue;
    const r = n.range!;
    out[n.name] = `${r.startLine}:${r.startCol}-${r.endLine}:${r.endCol}`;
  }
  return out;
}

describe('Phase A positions', () => {
  it('counts rows as TypeScript does: a lone \\r, U+2028 and U+2029 end a line too', () => {
    expect(definitions('const a = 1;\rfunction f() {}\u2028class K {}\u2029const b = 2;\n')).toEqual({
      a: '1:0-1:12',
      f: '2:0-2:15',
      K: '3:0-3:10',
      b: '4:0-4:12',
    });
  });

  it('counts columns in UTF-8 bytes: é is two, an emoji four (UTF-16 would end s at 16)', () => {
    expect(definitions('const s = "é😀"; function g() {}\n')).toEqual({ s: '1:0-1:19', g: '1:20-1:35' });
  });
});
