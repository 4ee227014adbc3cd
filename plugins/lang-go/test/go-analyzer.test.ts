// lang-go in process: Phase A on a realistic file, and Phase B on a small module with the
// scip-go stand-in of fixture-module.ts (the index it writes is what scip-go writes for it).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeFile, Edge } from '@travsr/protocol';
import { FileGraphBuilder, type FileResult, type ProgramContext } from '@travsr/sdk';
import { GoAnalyzer } from '../src/go-analyzer.js';
import { GoSyntax } from '../src/go-syntax.js';
import { writeFakeTools, writeModule } from './fixture-module.js';

const dist = new URL('../dist/', import.meta.url);
const query = readFileSync(new URL('../queries/go.scm', import.meta.url), 'utf8');
const newAnalyzer = (scratch: string, heartbeatMs?: number) =>
  new GoAnalyzer(
    new GoSyntax({ grammar: new URL('tree-sitter-go.wasm', dist), treeSitterWasm: new URL('tree-sitter.wasm', dist), query }),
    scratch,
    heartbeatMs,
  );

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-go-'));
  writeModule(join(dir, 'repo'));
  writeFakeTools(join(dir, 'bin'));
  writeFakeTools(join(dir, 'broken'), { mode: 'fail' });
  writeFakeTools(join(dir, 'slow'), { mode: 'slow' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function programContext(root: string, options: Record<string, unknown>, logs: string[] = []): ProgramContext {
  return {
    root,
    corpus: 'test.travsr.dev/shop',
    options,
    phases: ['A', 'B'],
    phase: 'B',
    signal: new AbortController().signal,
    changed: [],
    log: (_level, message) => void logs.push(message),
    async readFile(file: AnalyzeFile) {
      const text = readFileSync(join(root, file.path), 'utf8');
      return { path: file.path, language: file.language, absolutePath: join(root, file.path), bytes: Buffer.from(text), text };
    },
    // As the SDK makes them for a Phase B request.
    graphFor: (file: AnalyzeFile) =>
      new FileGraphBuilder({ corpus: 'test.travsr.dev/shop', path: file.path, language: file.language, provenance: 'phase-b' }),
  };
}

async function phaseB(tools: Record<string, string>, paths: string[]): Promise<Map<string, FileResult>> {
  const analyzer = newAnalyzer(join(dir, 'scratch'));
  expect(await analyzer.initialize({ options: { tools } })).toEqual({});
  const out = new Map<string, FileResult>();
  const ctx = programContext(join(dir, 'repo'), { tools });
  for await (const r of analyzer.analyze(
    paths.map((path) => ({ path, language: 'go' })),
    ctx,
  ))
    out.set(r.path, r);
  return out;
}

const show = (e: Edge) =>
  `${e.kind} ${e.src.path}#${e.src.signature} -> ${e.dst.path}#${e.dst.signature} (${e.provenance} ${e.confidence})`;
const nonContains = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();

describe('lang-go Phase A', () => {
  it('finds definitions qualified by receiver, imports, calls and embedding', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'ledger/ledger.go';
    const text = readFileSync(new URL('../snapshots/input/ledger/ledger.go', import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'c', path, language: 'go' });
    const a = await analyzer.analyzeFile({ path, language: 'go', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    const defs = a.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName ?? n.name}`);
    expect(defs).toEqual(
      expect.arrayContaining([
        'struct Account',
        'interface Store',
        'method Store.Load',
        'function New',
        'method Ledger.Post',
        'method Account.String',
        'function Names',
      ]),
    );
    const refs = (a.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`);
    expect(refs).toEqual(
      expect.arrayContaining([
        'imports example.com/shop/internal/money <- <file>',
        'imports sort <- <file>',
        'inherits Store <- AuditedStore',
        'calls l.store.Load <- Ledger.Post',
        'calls fmt.Errorf <- Ledger.Post',
        'calls stdsort.Slice <- Names',
      ]),
    );
  });

  it('says Phase B cannot run, and why, when scip-go or go was not found', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    const none = await analyzer.initialize({ options: {} });
    expect(none.unavailable?.[0]?.phase).toBe('B');
    expect(none.unavailable?.[0]?.reason).toMatch(
      /^scip-go and go are not on PATH: Go is analyzed at Phase A only .*go install github.com\/sourcegraph\/scip-go.*install Go/,
    );
    const noGo = await newAnalyzer(join(dir, 'scratch')).initialize({ options: { tools: { 'scip-go': '/x/scip-go' } } });
    expect(noGo.unavailable?.[0]?.reason).toMatch(/^go is not on PATH, and scip-go needs it: .*install Go \(https:\/\/go.dev\/dl\/\)/);
    expect(noGo.unavailable?.[0]?.reason).not.toMatch(/go install github/);
  });
});

describe('lang-go Phase B (scip-go)', () => {
  const tools = () => ({ 'scip-go': join(dir, 'bin', 'scip-go'), go: join(dir, 'bin', 'go') });

  it('resolves calls through interfaces and packages, and drops calls into the standard library', async () => {
    const out = await phaseB(tools(), ['ledger/ledger.go', 'memstore/memstore.go', 'money/money.go']);
    const ledger = nonContains(out.get('ledger/ledger.go'));
    expect(ledger).toEqual(
      expect.arrayContaining([
        'calls ledger/ledger.go#Ledger.Post -> ledger/ledger.go#Store.Load (scip 1)',
        'calls ledger/ledger.go#Ledger.Post -> money/money.go#Add (scip 1)',
        'imports ledger/ledger.go# -> money/money.go# (scip 1)',
        'types ledger/ledger.go#Ledger.Post -> money/money.go#Cents (scip 1)',
        'types ledger/ledger.go#Store.Load -> ledger/ledger.go#Account (scip 1)',
      ]),
    );
    // fmt.Errorf is outside the repository: no edge, and no ref left for name matching.
    expect(ledger.join('\n')).not.toMatch(/Errorf/);
    expect(out.get('ledger/ledger.go')?.refs ?? []).toEqual([]);
    const mem = nonContains(out.get('memstore/memstore.go'));
    expect(mem).toEqual(
      expect.arrayContaining([
        'calls memstore/memstore.go#Open -> ledger/ledger.go#New (scip 1)',
        'implements memstore/memstore.go#Mem -> ledger/ledger.go#Store (scip 1)',
        'implements memstore/memstore.go#Mem.Load -> ledger/ledger.go#Store.Load (scip 1)',
        'imports memstore/memstore.go# -> ledger/ledger.go# (scip 1)',
      ]),
    );
    // The build-constrained file is not a target of the import: scip-go did not index it.
    expect(mem.join('\n')).not.toMatch(/ledger_windows/);
    // Phase B output holds no Phase A edges (the store refuses them).
    for (const r of out.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
  });

  it('keeps the name-matchable refs of a file scip-go did not index, and says so', async () => {
    const out = await phaseB(tools(), ['ledger/ledger_windows.go']);
    const r = out.get('ledger/ledger_windows.go')!;
    expect(r.status ?? 'ok').toBe('ok');
    expect((r.refs ?? []).map((x) => x.name)).toEqual(['helper']);
    expect(r.diagnostics?.map((d) => d.code)).toContain('NOT_IN_SCIP_INDEX');
  });

  it('logs now and then while scip-go runs, so the host does not take the plugin for hung', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'), 150);
    const slow = { 'scip-go': join(dir, 'slow', 'scip-go'), go: join(dir, 'slow', 'go') };
    await analyzer.initialize({ options: { tools: slow } });
    const logs: string[] = [];
    const ctx = programContext(join(dir, 'repo'), { tools: slow }, logs);
    for await (const r of analyzer.analyze([{ path: 'money/money.go', language: 'go' }], ctx)) expect(r.status ?? 'ok').toBe('ok');
    expect(logs.filter((l) => /^scip-go is still indexing \. \(\d+ s\)$/.test(l)).length).toBeGreaterThanOrEqual(2);
    expect(logs.some((l) => /^scip-go indexed \. in \d+ ms$/.test(l))).toBe(true);
    expect(logs).toContain("scip-go's indexes hold 3 files");
  });

  it('fails the request with scip-go’s own message when scip-go fails', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    const broken = { 'scip-go': join(dir, 'broken', 'scip-go'), go: join(dir, 'broken', 'go') };
    await analyzer.initialize({ options: { tools: broken } });
    const ctx = programContext(join(dir, 'repo'), { tools: broken });
    const run = async () => {
      for await (const _ of analyzer.analyze([{ path: 'money/money.go', language: 'go' }], ctx)) void _;
    };
    await expect(run()).rejects.toThrow(/scip-go exited with 1 \(in .*\): .*could not load packages: go: updates to go.mod needed/);
  });
});
