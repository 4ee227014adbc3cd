// lang-dart in process: Phase A on a realistic file, Phase B with a scip-dart stand-in
// (test/fixture-project.ts) — resolved calls, inheritance and type references, calls into the
// SDK dropped, a package without `dart pub get` refused with what to do, scip-dart's failure reported.
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
import { scipDart } from '../src/scip-dart-indexer.js';
import { writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'dart',
      grammar: new URL('tree-sitter-dart.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/dart.scm', import.meta.url), 'utf8'),
    }),
    scipDart,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-dart-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = ['lib/pricing.dart', 'lib/cart.dart'].map((path) => ({ path, language: 'dart' }));
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e: Edge) => e.kind !== 'contains')
    .map((e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`)
    .sort();
const tools = (bin: string, mode?: 'fail') => {
  const scipDartPath = writeFakeTools(bin, mode);
  return { scip_dart: scipDartPath, dart: join(bin, 'dart') };
};

describe('lang-dart Phase A', () => {
  it('finds classes, constructors, methods, imports, calls and inheritance', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'lib/src/counter.dart';
    const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'dart' });
    const out = await analyzer.analyzeFile({ path, language: 'dart', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining([
        'class Counter',
        'class PersistentCounter',
        'constructor PersistentCounter.memory',
        'method PersistentCounter.increment',
        'class Loggable',
        'enum Mode',
        'method Counter.bump',
        'function twice',
      ]),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining([
        'imports package:meta/meta.dart <- <file>',
        'inherits Counter <- PersistentCounter',
        'inherits Loggable <- PersistentCounter',
        'implements Disposable <- PersistentCounter',
        'calls _store.write <- PersistentCounter.increment',
        'calls log <- PersistentCounter.increment',
        'calls increment <- Counter.bump',
      ]),
    );
  });

  it('says Phase B cannot run, and why, without scip_dart and dart', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip_dart and dart are not on PATH: Dart is analyzed at Phase A only .*pub global activate scip_dart/,
    );
  });
});

describe('lang-dart Phase B (scip-dart)', () => {
  it('turns the refs scip-dart resolved into edges and drops calls into the SDK', async () => {
    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools: tools(join(dir, 'bin')) } });
    const cart = results.get('lib/cart.dart');
    expect(cart?.status ?? 'ok').toBe('ok');
    expect(edges(cart)).toEqual(
      expect.arrayContaining([
        'calls Cart.total -> lib/pricing.dart#Pricing.price (scip)',
        'calls Cart.total -> lib/cart.dart#Base.items (scip)',
        'inherits Cart -> lib/cart.dart#Base (scip)',
        'types Cart.total -> lib/pricing.dart#Pricing (scip)',
      ]),
    );
    expect(edges(cart).join('\n')).not.toMatch(/fold/);
    expect(edges(results.get('lib/pricing.dart'))).toContain('calls Pricing.price -> lib/pricing.dart#Pricing.tax (scip)');
  });

  it('refuses a package `dart pub get` has not prepared, saying what to run', async () => {
    const bare = join(dir, 'no-pub-get');
    writeProject(bare);
    rmSync(join(bare, '.dart_tool'), { recursive: true });
    await expect(
      runPhaseB(newAnalyzer(join(dir, 'scratch')), bare, FILES, { options: { tools: tools(join(dir, 'bin')) } }),
    ).rejects.toThrow(/no \.dart_tool\/package_config\.json; run `dart pub get` there/);
  });

  it('fails the request with scip-dart’s own message when it fails', async () => {
    await expect(
      runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools: tools(join(dir, 'broken'), 'fail') } }),
    ).rejects.toThrow(/scip-dart exited with 1 .*could not resolve the package/);
  });
});
