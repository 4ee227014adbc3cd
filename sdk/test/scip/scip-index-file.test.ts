import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeScipIndex, ScipFormatError, ScipIndexFile, type ScipDocument } from '../../src/scip/index.js';
import { encodeScipIndex, type ScipDocumentSpec } from '../../src/testing/scip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'travsr-scip-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function doc(i: number): ScipDocumentSpec {
  return {
    path: `pkg/file${i}.ts`,
    language: 'typescript',
    occurrences: [
      { range: [0, 16, 16 + String(i).length + 1], symbol: `scip-typescript npm shop 1.0 pkg/\`file${i}.ts\`/f${i}().`, definition: true },
      { range: [2, 2, 4, 1], symbol: `local ${i}`, unpacked: i % 2 === 0 },
    ],
    symbols: [{ symbol: `scip-typescript npm shop 1.0 pkg/\`file${i}.ts\`/f${i}().`, kind: 17, displayName: `f${i}` }],
  };
}

function write(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

describe('ScipIndexFile', () => {
  const bytes = encodeScipIndex({
    projectRoot: 'file:///work/shop',
    toolName: 'scip-typescript',
    toolVersion: '0.3.14',
    documents: [1, 2, 3].map(doc),
  });

  it('scans an index a document at a time and reads each again from its place, as decodeScipIndex reads the whole', async () => {
    const whole = decodeScipIndex(bytes);
    const seen: ScipDocument[] = [];
    const roots: string[] = [];
    const file = await ScipIndexFile.open(write('a.scip', bytes), {
      onDocument: (d, _ref, meta) => {
        seen.push(d);
        roots.push(meta.projectRoot);
      },
    });
    try {
      expect(file.tool).toEqual({ name: 'scip-typescript', version: '0.3.14' });
      expect(file.projectRoot).toBe('file:///work/shop');
      expect(seen).toEqual(whole.documents);
      expect(roots).toEqual(['file:///work/shop', 'file:///work/shop', 'file:///work/shop']);
      expect(file.documents.map((r) => r.relativePath)).toEqual(['pkg/file1.ts', 'pkg/file2.ts', 'pkg/file3.ts']);
      expect(await file.read(file.documents[1]!)).toEqual(whole.documents[1]);
    } finally {
      await file.close();
    }
  });

  it('refuses a truncated index, naming the file and the byte', async () => {
    const path = write('truncated.scip', bytes.subarray(0, bytes.length - 7));
    await expect(ScipIndexFile.open(path)).rejects.toThrow(ScipFormatError);
    await expect(ScipIndexFile.open(path)).rejects.toThrow(
      /truncated\.scip: field 2 of \d+ bytes at byte \d+ runs past the end of the file .*truncated/,
    );
  });

  it('refuses a document above the limit instead of allocating for it', async () => {
    const path = write('big.scip', bytes);
    await expect(ScipIndexFile.open(path, { maxDocumentBytes: 16 })).rejects.toThrow(
      /a document of \d+ bytes at byte \d+ is above the limit of 16/,
    );
  });

  it('reads an empty file as an index without documents', async () => {
    const file = await ScipIndexFile.open(write('empty.scip', new Uint8Array()));
    expect(file.documents).toEqual([]);
    await file.close();
  });
});
