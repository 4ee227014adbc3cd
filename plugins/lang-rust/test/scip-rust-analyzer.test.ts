// The rust-analyzer upgrade wired into Phase B: with the option on and the tool found, its call
// edges replace the native ones of the files it indexed; off (the default), nothing changes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeProject, calls } from './helpers/analyze-project.js';
import { SOURCES, writeCrate, writeFakeRustAnalyzer } from './scip-rust-fixture.js';

function crate(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lang-rust-scip-'));
  writeCrate(dir);
  return dir;
}

const rustFiles = Object.keys(SOURCES).filter((p) => p.endsWith('.rs'));

describe('Phase B with the rust-analyzer upgrade', () => {
  it('takes the call edges of rust-analyzer (provenance scip) in place of the native ones', async () => {
    const root = crate();
    const tool = writeFakeRustAnalyzer(mkdtempSync(join(tmpdir(), 'lang-rust-bin-')));
    const r = await analyzeProject({}, rustFiles, root, { rustAnalyzer: 'true', tools: { 'rust-analyzer': tool } });
    expect(r.failed).toEqual([]);
    const native = await analyzeProject({}, rustFiles, root);
    expect(calls(r).length).toBeGreaterThan(0);
    // Every call edge is rust-analyzer's; the fixture index resolves what the native resolver proves.
    expect(calls(r)).toEqual(r.scipEdges.filter((e) => e.includes(' -calls-> ')).sort());
    expect(native.scipEdges).toEqual([]);
    expect(calls(r)).toEqual(calls(native));
    expect(r.logs.join('\n')).not.toMatch(/upgrade failed/);
  });

  it('says why when the option is on and the tool is missing, and resolves natively', async () => {
    const root = crate();
    const r = await analyzeProject({}, rustFiles, root, { rustAnalyzer: 'true', tools: {} });
    expect(r.logs.join('\n')).toMatch(/rust-analyzer is not on PATH: Phase B resolves natively/);
    expect(calls(r).length).toBeGreaterThan(0);
  });

  it('resolves natively with a warning when rust-analyzer fails', async () => {
    const root = crate();
    const tool = writeFakeRustAnalyzer(mkdtempSync(join(tmpdir(), 'lang-rust-bin-')), 'fail');
    const r = await analyzeProject({}, rustFiles, root, { rustAnalyzer: 'true', tools: { 'rust-analyzer': tool } });
    expect(r.logs.join('\n')).toMatch(/the rust-analyzer upgrade failed, Phase B resolves natively/);
    expect(calls(r).length).toBeGreaterThan(0);
  });
});
