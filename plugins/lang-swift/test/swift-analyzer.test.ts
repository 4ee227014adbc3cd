// lang-swift in process: Phase A on a realistic file, Phase B with a scip-swift stand-in
// (test/fixture-project.ts) started directly, display names as the compiler writes them —
// resolved calls (constructor calls too), inheritance, conformances and type references, calls
// into the SDK dropped, a file no target compiles kept for name matching, scip-swift's failure
// reported.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edge } from '@travsr/protocol';
import { FileGraphBuilder, filesOfManifest, languageOfFiles, type FileResult } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import { runPhaseB } from '@travsr/sdk/testing';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { scipSwift } from '../src/scip-swift-indexer.js';
import { fixtureDocuments, PROJECT_FILES, writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'swift',
      grammar: new URL('tree-sitter-swift.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/swift.scm', import.meta.url), 'utf8'),
    }),
    scipSwift,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  expect(existsSync(new URL('main.js', dist)), 'build first: npm run build -w @travsr/plugin-lang-swift').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'lang-swift-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = Object.keys(PROJECT_FILES).map((path) => ({ path, language: 'swift' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();
const tools = (bin: string, mode?: Parameters<typeof writeFakeTools>[1]) => ({
  'scip-swift': writeFakeTools(bin, mode),
  swift: join(bin, 'swift'),
});

describe('lang-swift Phase A', () => {
  it('finds structs, classes, enums, protocols, extension methods and functions, imports, calls and inheritance', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'Sources/Weather/Forecast.swift';
    const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'swift' });
    const out = await analyzer.analyzeFile({ path, language: 'swift', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining([
        'struct Forecast',
        'interface ForecastSource',
        'method ForecastSource.forecast',
        'enum WeatherError',
        'class ForecastService',
        'constructor ForecastService.init',
        'method ForecastService.endpoint',
        'method Forecast.summary',
        'function celsius',
      ]),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining([
        'imports Foundation <- <file>',
        'inherits Codable <- Forecast',
        'inherits NSObject <- ForecastService',
        'calls endpoint <- ForecastService.forecast',
        'calls session.data <- ForecastService.forecast',
        'calls WeatherError.unknownCity <- ForecastService.endpoint',
      ]),
    );
  });

  it('says Phase B cannot run, and why, when scip-swift or swift was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-swift and swift are not on PATH: Swift is analyzed at Phase A only .*github.com\/jarvis-intelligence\/scip-swift.*swift\.org/,
    );
    const noSwift = await newAnalyzer(join(dir, 'scratch')).initialize({
      options: { tools: { 'scip-swift': '/usr/local/bin/scip-swift' } },
    });
    expect(noSwift.unavailable?.[0]?.reason).toMatch(/^swift is not on PATH, and scip-swift needs it: .*Swift toolchain/);
  });
});

describe('lang-swift Phase B (scip-swift)', () => {
  it('turns the refs scip-swift resolved into edges and drops calls into the Swift SDK', async () => {
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools: tools(join(dir, 'bin')) },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-swift's indexes hold 6 files");
    // It ran on a copy: nothing was written into the repository.
    expect(existsSync(join(repo, 'index.scip'))).toBe(false);
    const checkout = results.get('Sources/Shop/Checkout.swift');
    expect(checkout?.status ?? 'ok').toBe('ok');
    expect(edges(checkout)).toEqual(
      expect.arrayContaining([
        'calls Checkout.total -> Sources/Shop/Rates.swift#Rates.price (scip)',
        'calls Checkout.summary -> Sources/Shop/Money.swift#money (scip)',
        'calls Checkout.summary -> Sources/Shop/Checkout.swift#Checkout.total (scip)',
        'calls Checkout.adding -> Sources/Shop/Basket.swift#Basket.add (scip)',
        'inherits Checkout -> Sources/Shop/Basket.swift#Basket (scip)',
        'implements Checkout -> Sources/Shop/Totals.swift#Totals (scip)',
        'implements Checkout.total -> Sources/Shop/Totals.swift#Totals.total (scip)',
        'types Checkout.total -> Sources/Shop/Rates.swift#Rates (scip)',
        'calls Checkout.receipt -> Sources/Shop/Checkout.swift#Checkout.total (scip)',
        'calls Checkout.withTea -> Sources/Shop/Checkout.swift#Checkout.adding (scip)',
      ]),
    );
    // map, reduce, String(format:), Foundation: outside the repository, dropped.
    expect(edges(checkout).join('\n')).not.toMatch(/map|reduce|String|Foundation/);
    expect((checkout?.refs ?? []).filter((r) => r.kind === 'calls' || r.kind === 'imports')).toEqual([]);
    const rates = results.get('Sources/Shop/Rates.swift');
    expect(edges(rates)).toEqual(
      expect.arrayContaining([
        'calls Rates.price -> Sources/Shop/Rates.swift#Rates.tax (scip)',
        'types Rates.price -> Sources/Shop/Item.swift#Item (scip)',
      ]),
    );
    expect(edges(rates).join('\n')).not.toMatch(/rounded|Double/);
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
    // Package.swift is compiled by no target: its refs stay for name matching.
    const manifestFile = results.get('Package.swift');
    expect(manifestFile?.diagnostics?.map((d) => d.code)).toContain('NOT_IN_SCIP_INDEX');
    expect((manifestFile?.refs ?? []).map((r) => `${r.kind} ${r.name}`)).toContain('imports PackageDescription');
  });

  it('resolves calls with the compiler’s display names left in the index: the SDK matches descriptor names', async () => {
    // scip-swift is started directly (the host's path for it, the default command): nothing
    // rewrites the index it writes.
    const inv = scipSwift.invocation({
      root: '/repo',
      projectDir: '/tmp/copy',
      project: '',
      tools: { 'scip-swift': '/opt/bin/scip-swift', swift: '/opt/bin/swift' },
      output: '/tmp/run/index.scip',
      scratchDir: '/tmp/scratch',
      env: { PATH: '/opt/bin', HOME: '/home/me' },
    });
    expect(inv.command).toBeUndefined();
    expect(inv.args).toEqual(['index', '/tmp/copy', '--output', '/tmp/run/index.scip']);
    expect(inv.env).toEqual({ PATH: '/opt/bin', HOME: '/tmp/scratch' });
    // The stand-in's index names every symbol the way the compiler does, never the bare identifier.
    const names = fixtureDocuments().flatMap((d) => (d.symbols ?? []).map((s) => s.displayName));
    expect(names).toContain('Shop.Checkout.total() -> Swift.Int');
    expect(names.filter((n) => !n || (!n.startsWith('Shop.') && !n.startsWith('static Shop.')))).toEqual([]);

    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools: tools(join(dir, 'bin')) },
    });
    const calls = edges(results.get('Sources/Shop/Checkout.swift')).filter((e) => e.startsWith('calls'));
    expect(calls).toEqual(
      expect.arrayContaining([
        'calls Checkout.total -> Sources/Shop/Rates.swift#Rates.price (scip)',
        'calls Checkout.summary -> Sources/Shop/Money.swift#money (scip)',
        'calls Checkout.adding -> Sources/Shop/Basket.swift#Basket.add (scip)',
      ]),
    );
  });

  it('resolves a constructor call, where the type and its init end at one place, to what the repository defines', async () => {
    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools: tools(join(dir, 'bin')) },
    });
    const checkout = edges(results.get('Sources/Shop/Checkout.swift'));
    expect(checkout).toEqual(
      expect.arrayContaining([
        // `Receipt(cents:)`: the memberwise init is compiler-made (no definition, not external): the type.
        'calls Checkout.receipt -> Sources/Shop/Money.swift#Receipt (scip)',
        // `Item(name:cents:)`: Item declares its init, which the index defines: that init.
        'calls Checkout.withTea -> Sources/Shop/Item.swift#Item.init (scip)',
      ]),
    );
    // Neither call is dropped as a call outside the repository, nor left to name matching.
    expect((results.get('Sources/Shop/Checkout.swift')?.refs ?? []).filter((r) => r.kind === 'calls')).toEqual([]);
  });

  it('fails the request with scip-swift’s own message when it fails', async () => {
    await expect(
      runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools: tools(join(dir, 'broken'), 'fail') } }),
    ).rejects.toThrow(/scip-swift exited with 1 .*'swift build' failed with exit code 1: .*cannot find 'Rates' in scope/);
  });

  it('finds no project, and says so, in a repository without Package.swift or an Xcode project', async () => {
    const bare = join(dir, 'bare');
    writeProject(bare);
    rmSync(join(bare, 'Package.swift'));
    await expect(
      runPhaseB(newAnalyzer(join(dir, 'scratch')), bare, FILES, { options: { tools: tools(join(dir, 'bin')) } }),
    ).rejects.toThrow(/scip-swift found no Swift package/);
  });
});
