import { describe, expect, it } from 'vitest';
import type { Edge, Node, UnresolvedRef } from '@travsr/protocol';
import type { GraphStore } from '../../src/store/graph-store.js';
import type { FileGraphInput } from '../../src/store/types.js';
import { analysis, exported, tempStore, vn } from './graph-fixtures.js';

// A toy language: a file defines functions and calls names. Phase A emits the definitions,
// `contains` edges and one ref per call; Phase B resolves a call when exactly one definition
// of that name exists in the whole tree (like a compiler would), else emits nothing.
interface FileContent {
  defs: string[];
  calls: { from: string; to: string }[];
}
type Tree = Map<string, FileContent>;

function phaseA(path: string, c: FileContent): FileGraphInput {
  const file: Node = { vname: vn(path, ''), kind: 'file', name: path };
  const nodes: Node[] = [file, ...c.defs.map((d): Node => ({ vname: vn(path, `#${d}`), kind: 'function', name: d }))];
  const edges: Edge[] = c.defs.map((d) => ({
    src: file.vname,
    dst: vn(path, `#${d}`),
    kind: 'contains',
    provenance: 'phase-a',
    confidence: 1,
  }));
  const refs: UnresolvedRef[] = c.calls.map((k) => ({ src: vn(path, `#${k.from}`), kind: 'calls', name: `mod.${k.to}` }));
  return analysis(path, { sha256: JSON.stringify(c), nodes, edges, refs });
}

function phaseB(path: string, c: FileContent, tree: Tree): FileGraphInput {
  const edges: Edge[] = [];
  for (const k of c.calls) {
    const targets = [...tree].flatMap(([p, fc]) => (fc.defs.includes(k.to) ? [p] : []));
    if (targets.length === 1)
      edges.push({ src: vn(path, `#${k.from}`), dst: vn(targets[0]!, `#${k.to}`), kind: 'calls', provenance: 'phase-b', confidence: 1 });
  }
  return analysis(path, { sha256: JSON.stringify(c), phase: 'B', plugin: 'toy-b@1', nodes: [], edges });
}

function fullIndex(tree: Tree, withPhaseB = true): GraphStore {
  const store = tempStore();
  for (const [p, c] of [...tree].reverse()) store.replaceFile(phaseA(p, c)); // another order than the incremental run
  if (withPhaseB) for (const [p, c] of tree) store.replaceFile(phaseB(p, c, tree));
  store.resolveRefs();
  return store;
}

/**
 * The same for a language analyzed at Phase A only: no file is analyzed again for a change
 * elsewhere; the refs of other files that name a changed name are matched again by name (the
 * store's `names` scope), as a one-file `hook-run` of a Lua repository does.
 */
function incrementalPhaseA(store: GraphStore, before: Tree, after: Tree): void {
  const changed = [...after].filter(([p, c]) => JSON.stringify(before.get(p)) !== JSON.stringify(c)).map(([p]) => p);
  const removed = [...before.keys()].filter((p) => !after.has(p));
  const touched = [...changed, ...removed];
  const namesBefore = store.definedNames(touched);
  store.transaction(() => {
    for (const p of removed) store.removeFile(p);
    for (const p of changed) store.replaceFile(phaseA(p, after.get(p)!));
    const names = [...new Set([...namesBefore, ...store.definedNames(changed)])];
    store.resolveRefs({ paths: touched, names });
  });
}

/** The indexer's incremental protocol, as the store's API documents it. */
function incremental(store: GraphStore, before: Tree, after: Tree): void {
  const changed = [...after].filter(([p, c]) => JSON.stringify(before.get(p)) !== JSON.stringify(c)).map(([p]) => p);
  const removed = [...before.keys()].filter((p) => !after.has(p));
  const touched = [...changed, ...removed];
  const namesBefore = store.definedNames(touched);
  const dependents = new Set(store.dependentsOf(touched));
  store.transaction(() => {
    for (const p of removed) store.removeFile(p);
    for (const p of changed) store.replaceFile(phaseA(p, after.get(p)!));
  });
  const names = [...new Set([...namesBefore, ...store.definedNames(changed)])];
  for (const p of store.referrersOf(names)) dependents.add(p);
  for (const p of touched) dependents.delete(p);
  store.transaction(() => {
    for (const p of [...changed, ...dependents]) if (after.has(p)) store.replaceFile(phaseB(p, after.get(p)!, after));
    store.resolveRefs({ paths: [...touched, ...dependents], names });
  });
}

/** A tree changed by one random commit: files edited, removed or added. */
function commitTo(tree: Tree, r: () => number, commit: number): Tree {
  const next: Tree = new Map(tree);
  const edits = 1 + Math.floor(r() * 3);
  for (let e = 0; e < edits; e++) {
    const paths = [...next.keys()];
    const roll = r();
    if (roll < 0.6 && paths.length > 0) next.set(paths[Math.floor(r() * paths.length)]!, randomContent(r));
    else if (roll < 0.8 && paths.length > 2) next.delete(paths[Math.floor(r() * paths.length)]!);
    else next.set(`src/n${commit}_${e}.ts`, randomContent(r));
  }
  return next;
}

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['parse', 'load', 'save', 'render', 'query', 'index', 'build'];

function randomContent(r: () => number): FileContent {
  const pick = () => NAMES[Math.floor(r() * NAMES.length)]!;
  const defs = [...new Set(Array.from({ length: 1 + Math.floor(r() * 3) }, pick))];
  const calls = Array.from({ length: Math.floor(r() * 4) }, () => ({ from: defs[Math.floor(r() * defs.length)]!, to: pick() }));
  return { defs, calls };
}

describe('incremental reindex through the store API', () => {
  it('ends with the same exported graph as a full index of the same tree, over many random commits', () => {
    const r = rng(20260715);
    let tree: Tree = new Map(Array.from({ length: 6 }, (_, i) => [`src/f${i}.ts`, randomContent(r)]));
    const store = fullIndex(tree);
    for (let commit = 0; commit < 40; commit++) {
      const next = commitTo(tree, r, commit);
      incremental(store, tree, next);
      tree = next;
      const full = fullIndex(tree);
      expect(exported(store), `after commit ${commit}`).toEqual(exported(full));
      full.close();
    }
    store.close();
  });

  it('at Phase A only, matching again by name what other files call, ends with the graph of a full index', () => {
    const r = rng(20261206);
    let tree: Tree = new Map(Array.from({ length: 8 }, (_, i) => [`src/f${i}.ts`, randomContent(r)]));
    const store = fullIndex(tree, false);
    for (let commit = 0; commit < 60; commit++) {
      const next = commitTo(tree, r, commit);
      incrementalPhaseA(store, tree, next);
      tree = next;
      const full = fullIndex(tree, false);
      expect(exported(store), `after commit ${commit}`).toEqual(exported(full));
      full.close();
    }
    store.close();
  });
});
