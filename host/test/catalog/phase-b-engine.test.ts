// How status and lang list name the Phase B that ran: the plugin's own resolver (`native`) or
// the SCIP indexer it declares, from the provenance of the stored edges.
import { describe, expect, it } from 'vitest';
import { enginesOfEdges, engineOfProvenance, expectedPhaseBEngine } from '../../src/catalog/phase-b-engine.js';

const base = { network: false, ipc: 'none', hostApi: false } as const;
const goManifest = { phases: ['A', 'B'] as ('A' | 'B')[], constraints: { ...base, tools: ['scip-go', 'go'] } };
const pythonManifest = { phases: ['A', 'B'] as ('A' | 'B')[], constraints: { ...base } };
// lang-python: a native Phase B, scip-python an optional upgrade of it.
const upgradedManifest = { phases: ['A', 'B'] as ('A' | 'B')[], constraints: { ...base, optionalTools: ['scip-python'] } };

describe('Phase B engines', () => {
  it('names phase-b edges native and scip edges after the declared SCIP indexer', () => {
    expect(engineOfProvenance('phase-b', goManifest)).toBe('native');
    expect(engineOfProvenance('scip', goManifest)).toBe('scip-go');
    expect(engineOfProvenance('scip', pythonManifest)).toBe('scip');
    expect(engineOfProvenance('lsif')).toBe('lsif');
    expect(engineOfProvenance('scip', upgradedManifest)).toBe('scip-python');
    // lang-rust: rust-analyzer writes SCIP without being named scip-*.
    expect(engineOfProvenance('scip', { constraints: { ...base, optionalTools: ['rust-analyzer'] } })).toBe('rust-analyzer');
    expect(expectedPhaseBEngine({ phases: ['A', 'B'], constraints: { ...base, optionalTools: ['rust-analyzer'] } })).toBe('native');
  });

  it('lists every engine that stored edges, native first, and none without edges', () => {
    expect(enginesOfEdges({ scip: 4, 'phase-b': 10 }, { constraints: { ...base, tools: ['scip-python'] } })).toEqual([
      'native',
      'scip-python',
    ]);
    expect(enginesOfEdges({ 'phase-b': 0 })).toEqual([]);
    expect(enginesOfEdges(undefined)).toEqual([]);
  });

  it('expects a declared SCIP indexer, else the native resolver, and nothing of a Phase A plugin', () => {
    expect(expectedPhaseBEngine(goManifest)).toBe('scip-go');
    expect(expectedPhaseBEngine(pythonManifest)).toBe('native');
    // An optional indexer is an upgrade the user turns on: the native resolver is what runs by default.
    expect(expectedPhaseBEngine(upgradedManifest)).toBe('native');
    expect(expectedPhaseBEngine({ phases: ['A'], constraints: { ...base } })).toBeUndefined();
  });
});
