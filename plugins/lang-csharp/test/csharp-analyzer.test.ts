// lang-csharp in process: Phase A on a realistic file, Phase B with a scip-dotnet stand-in
// (test/fixture-project.ts) — resolved calls, base types, implementations and type references,
// calls into the framework and NuGet packages dropped, scip-dotnet's failure reported.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edge } from '@travsr/protocol';
import { FileGraphBuilder, filesOfManifest, languageOfFiles, type FileResult } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import { runPhaseB } from '@travsr/sdk/testing';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { scipDotnet } from '../src/scip-dotnet-indexer.js';
import { writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'csharp',
      grammar: new URL('tree-sitter-c_sharp.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/csharp.scm', import.meta.url), 'utf8'),
    }),
    scipDotnet,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-csharp-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SRC = 'src/Shop';
const FILES = ['EntityBase.cs', 'IPriced.cs', 'Pricing.cs', 'Cart.cs'].map((f) => ({ path: `${SRC}/${f}`, language: 'csharp' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();

// The csharp case of lang-structural's languages test, which served C# before this plugin.
const CASE = {
  file: 'Shop/Cart.cs',
  defines: [
    'namespace Shop.Checkout',
    'class Shop.Checkout.Cart',
    'constructor Shop.Checkout.Cart.Cart',
    'method Shop.Checkout.Cart.Add',
    'property Shop.Checkout.Cart.Total',
    'interface Shop.Checkout.IDiscount',
    'struct Shop.Checkout.Money',
    'enum Shop.Checkout.Currency',
  ],
  refers: [
    'imports System.Collections.Generic <- <file>',
    'imports System.Text.Json.JsonSerializer <- <file>',
    'inherits EntityBase <- Shop.Checkout.Cart',
    'inherits IEnumerable <- Shop.Checkout.Cart',
    'calls _items.Add <- Shop.Checkout.Cart.Add',
    'calls Console.WriteLine <- Shop.Checkout.Cart.Add',
    'calls Json.Serialize <- Shop.Checkout.Cart.ToJson',
  ],
};

describe('lang-csharp Phase A', () => {
  it('finds namespaces, types, members qualified by their namespace, usings, calls and base types', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const text = readFileSync(new URL(`../snapshots/input/${CASE.file}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path: CASE.file, language: 'csharp' });
    const out = await analyzer.analyzeFile(
      { path: CASE.file, language: 'csharp', absolutePath: CASE.file, bytes: Buffer.from(text), text },
      { graph },
    );
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining(CASE.defines),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining(CASE.refers),
    );
  });

  it('says Phase B cannot run, and why, when scip-dotnet or the .NET SDK was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-dotnet and dotnet are not on PATH: C# is analyzed at Phase A only .*github.com\/sourcegraph\/scip-dotnet.*\.NET SDK/,
    );
    const noSdk = await newAnalyzer(join(dir, 'scratch')).initialize({ options: { tools: { 'scip-dotnet': '/opt/bin/scip-dotnet' } } });
    expect(noSdk.unavailable?.[0]?.reason).toMatch(/^dotnet is not on PATH, and scip-dotnet needs it: .*install the \.NET SDK/);
  });
});

describe('lang-csharp Phase B (scip-dotnet)', () => {
  it('turns the refs scip-dotnet resolved into edges and drops calls into the framework and NuGet packages', async () => {
    const bin = join(dir, 'bin');
    const scip = writeFakeTools(bin);
    const tools = { 'scip-dotnet': scip, dotnet: join(bin, 'dotnet') };
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-dotnet's indexes hold 4 files");
    const cart = results.get(`${SRC}/Cart.cs`);
    expect(cart?.status ?? 'ok').toBe('ok');
    expect(edges(cart)).toEqual(
      expect.arrayContaining([
        `calls Shop.Checkout.Cart.Total -> ${SRC}/Pricing.cs#Shop.Checkout.Pricing.Price (scip)`,
        `calls Shop.Checkout.Cart.Add -> ${SRC}/EntityBase.cs#Shop.Checkout.EntityBase.Describe (scip)`,
        `calls Shop.Checkout.Cart.Cents -> ${SRC}/Cart.cs#Shop.Checkout.Cart.Total (scip)`,
        `inherits Shop.Checkout.Cart -> ${SRC}/EntityBase.cs#Shop.Checkout.EntityBase (scip)`,
        `inherits Shop.Checkout.Cart -> ${SRC}/IPriced.cs#Shop.Checkout.IPriced (scip)`,
        `implements Shop.Checkout.Cart -> ${SRC}/IPriced.cs#Shop.Checkout.IPriced (scip)`,
        `implements Shop.Checkout.Cart.Cents -> ${SRC}/IPriced.cs#Shop.Checkout.IPriced.Cents (scip)`,
        `types Shop.Checkout.Cart.Add -> ${SRC}/IPriced.cs#Shop.Checkout.IPriced (scip)`,
      ]),
    );
    // List<T>.Add, Console.WriteLine, Enumerable.Sum, JsonConvert.SerializeObject and `new List<…>()`
    // are outside the repository: dropped, not matched by name.
    expect(edges(cart).join('\n')).not.toMatch(/WriteLine|Sum|SerializeObject|List|#Shop\.Checkout\.Cart\.Add /);
    expect((cart?.refs ?? []).filter((r) => r.kind === 'calls')).toEqual([]);
    expect(edges(results.get(`${SRC}/Pricing.cs`))).toEqual(
      expect.arrayContaining([
        `calls Shop.Checkout.Pricing.Price -> ${SRC}/Pricing.cs#Shop.Checkout.Pricing.Tax (scip)`,
        `calls Shop.Checkout.Pricing.Price -> ${SRC}/IPriced.cs#Shop.Checkout.IPriced.Cents (scip)`,
      ]),
    );
    expect(edges(results.get(`${SRC}/Pricing.cs`)).join('\n')).not.toMatch(/Round/);
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
  });

  it('hands the host’s proxy to NuGet for HTTPS and HTTP alike (the stand-in refuses to run otherwise)', async () => {
    const bin = join(dir, 'bin');
    const tools = { 'scip-dotnet': writeFakeTools(bin), dotnet: join(bin, 'dotnet') };
    const saved = process.env['TRAVSR_PROXY_ADDRESS'];
    // The Windows form of the host's proxy: a loopback address the bridge passes on as it is.
    process.env['TRAVSR_PROXY_ADDRESS'] = '127.0.0.1:41234';
    try {
      const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } });
      expect(edges(results.get(`${SRC}/Cart.cs`))).toContain(
        `calls Shop.Checkout.Cart.Total -> ${SRC}/Pricing.cs#Shop.Checkout.Pricing.Price (scip)`,
      );
    } finally {
      if (saved === undefined) delete process.env['TRAVSR_PROXY_ADDRESS'];
      else process.env['TRAVSR_PROXY_ADDRESS'] = saved;
    }
    // The same stand-in, given HTTPS_PROXY without HTTP_PROXY, says why it stops.
    const bad = spawnSync(tools['scip-dotnet'], ['index', 'Shop.sln', '--output', join(dir, 'x.scip'), '--dotnet-restore-timeout', '1'], {
      cwd: repo,
      env: {
        PATH: `${bin}:/usr/bin:/bin`,
        DOTNET_CLI_HOME: '/h',
        NUGET_PACKAGES: '/p',
        NUGET_HTTP_CACHE_PATH: '/c',
        HTTPS_PROXY: 'http://127.0.0.1:41234',
      },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/HTTPS_PROXY=http:\/\/127\.0\.0\.1:41234 but HTTP_PROXY=undefined/);
  });

  it('fails the request with scip-dotnet’s own message when it fails', async () => {
    const bin = join(dir, 'broken');
    const tools = { 'scip-dotnet': writeFakeTools(bin, 'fail'), dotnet: join(bin, 'dotnet') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } })).rejects.toThrow(
      /scip-dotnet exited with 1 .*Unable to load the service index for source https:\/\/api\.nuget\.org/,
    );
  });
});
