// lang-ruby in process: Phase A on a realistic file, Phase B with a scip-ruby stand-in
// (test/fixture-project.ts) — resolved calls, inheritance and type references, external calls
// dropped, a file outside the index kept for name matching, scip-ruby's failure reported.
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
import { scipRuby } from '../src/scip-ruby-indexer.js';
import { writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'ruby',
      grammar: new URL('tree-sitter-ruby.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/ruby.scm', import.meta.url), 'utf8'),
    }),
    scipRuby,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-ruby-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = ['lib/shop/base.rb', 'lib/shop/pricing.rb', 'lib/shop/cart.rb'].map((path) => ({ path, language: 'ruby' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();

describe('lang-ruby Phase A', () => {
  it('finds modules, classes, methods qualified by their module, requires, calls and inheritance', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'lib/mailer/delivery.rb';
    const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'ruby' });
    const out = await analyzer.analyzeFile({ path, language: 'ruby', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining([
        'module Mailer',
        'class Mailer.Delivery',
        'method Mailer.Delivery.deliver',
        'method Mailer.Delivery.default',
        'method Mailer.Delivery.from_env',
        'method Mailer.Delivery.smtp',
      ]),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining([
        'imports net/smtp <- <file>',
        'imports template <- <file>',
        'inherits Base <- Mailer.Delivery',
        'inherits Retryable <- Mailer.Delivery',
        'calls Template.render <- Mailer.Delivery.deliver',
        'calls with_retries <- Mailer.Delivery.deliver',
        'calls Logger <- Mailer.Delivery.initialize',
        'calls Net::SMTP.start <- Mailer.Delivery.smtp',
      ]),
    );
  });

  it('says Phase B cannot run, and why, when scip-ruby was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-ruby is not on PATH: Ruby is analyzed at Phase A only .*github.com\/sourcegraph\/scip-ruby/,
    );
  });
});

describe('lang-ruby Phase B (scip-ruby)', () => {
  it('turns the refs scip-ruby resolved into edges and drops calls into gems and the core library', async () => {
    const bin = join(dir, 'bin');
    const tools = { 'scip-ruby': writeFakeTools(bin) };
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-ruby's indexes hold 3 files");
    const cart = results.get('lib/shop/cart.rb');
    expect(cart?.status ?? 'ok').toBe('ok');
    expect(edges(cart)).toEqual(
      expect.arrayContaining([
        'calls Shop.Cart.total -> lib/shop/pricing.rb#Shop.Pricing.price (scip)',
        'inherits Shop.Cart -> lib/shop/base.rb#Shop.Base (scip)',
        'types Shop.Cart.total -> lib/shop/pricing.rb#Shop.Pricing (scip)',
      ]),
    );
    // JSON.generate and Array#sum are outside the repository: dropped, not matched by name.
    expect(edges(cart).join('\n')).not.toMatch(/generate|sum/);
    expect((cart?.refs ?? []).filter((r) => r.kind === 'calls')).toEqual([]);
    expect(edges(results.get('lib/shop/pricing.rb'))).toContain('calls Shop.Pricing.price -> lib/shop/pricing.rb#Shop.Pricing.tax (scip)');
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
  });

  it('fails the request with scip-ruby’s own message when it fails', async () => {
    const tools = { 'scip-ruby': writeFakeTools(join(dir, 'broken'), 'fail') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } })).rejects.toThrow(
      /scip-ruby exited with 1 .*Sorbet crashed/,
    );
  });
});
