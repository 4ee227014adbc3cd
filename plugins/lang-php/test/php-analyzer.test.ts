// lang-php in process: Phase A on a realistic file, Phase B with a scip-php stand-in
// (test/fixture-project.ts) — resolved calls, inheritance, implementations and type references,
// calls into PHP and Composer packages dropped, scip-php's failure reported.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edge } from '@travsr/protocol';
import { FileGraphBuilder, filesOfManifest, languageOfFiles, type FileResult } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import { runPhaseB } from '@travsr/sdk/testing';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { extensionFlags, scipPhp } from '../src/scip-php-indexer.js';
import { PROJECT_FILES, writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'php',
      grammar: new URL('tree-sitter-php.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/php.scm', import.meta.url), 'utf8'),
    }),
    scipPhp,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-php-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = Object.keys(PROJECT_FILES)
  .filter((p) => p.endsWith('.php'))
  .map((path) => ({ path, language: 'php' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();

describe('lang-php Phase A', () => {
  it('finds classes, interfaces, traits, enums, methods and functions, use/require imports, calls and inheritance', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'src/Http/Router.php';
    const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'php' });
    const out = await analyzer.analyzeFile({ path, language: 'php', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining([
        'class Router',
        'method Router.dispatch',
        'interface RouterInterface',
        'trait LoggerAwareTrait',
        'enum Method',
        'function route',
      ]),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining([
        'imports App.Http.Middleware.Auth <- <file>',
        'imports Psr.Http.Message.ServerRequestInterface <- <file>',
        'imports /helpers.php <- <file>',
        'inherits BaseRouter <- Router',
        'implements Countable <- Router',
        'inherits LoggerAwareTrait <- Router',
        'calls array_get <- Router.dispatch',
        'calls $this.container.call <- Router.dispatch',
        'calls Response.notFound <- Router.dispatch',
        'calls Auth <- Router.dispatch',
      ]),
    );
  });

  it('says Phase B cannot run, and why, when scip-php or php was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-php and php are not on PATH: PHP is analyzed at Phase A only .*github.com\/davidrjenni\/scip-php.*PHP 8\.3/,
    );
    const noPhp = await newAnalyzer(join(dir, 'scratch')).initialize({ options: { tools: { 'scip-php': '/usr/local/bin/scip-php' } } });
    expect(noPhp.unavailable?.[0]?.reason).toMatch(/^php is not on PATH, and scip-php needs it: .*install PHP 8\.3/);
  });
});

describe('lang-php Phase B (scip-php)', () => {
  it('turns the refs scip-php resolved into edges and drops calls into PHP and Composer packages', async () => {
    const bin = join(dir, 'bin');
    const tools = { 'scip-php': writeFakeTools(bin), php: join(bin, 'php') };
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-php's indexes hold 6 files");
    // It ran on a copy: nothing was written into the repository.
    expect(existsSync(join(repo, 'index.scip'))).toBe(false);
    const order = results.get('src/Shop/Order.php');
    expect(order?.status ?? 'ok').toBe('ok');
    expect(edges(order)).toEqual(
      expect.arrayContaining([
        'calls Order.total -> src/Shop/Tariff.php#Tariff.price (scip)',
        'calls Order.total -> src/Shop/Base.php#Base.items (scip)',
        'calls Order.total -> src/helpers.php#money (scip)',
        'calls Order.toJson -> src/Shop/Order.php#Order.total (scip)',
        'inherits Order -> src/Shop/Base.php#Base (scip)',
        'implements Order -> src/Shop/Totals.php#Totals (scip)',
        'types Order.total -> src/Shop/Tariff.php#Tariff (scip)',
      ]),
    );
    // $this->logger->info (psr/log), \count, json_encode, \Countable: outside the repository, dropped.
    expect(edges(order).join('\n')).not.toMatch(/info|json_encode|Countable|-> [^#]*#count /);
    expect((order?.refs ?? []).filter((r) => r.kind === 'calls' || r.kind === 'implements')).toEqual([]);
    const tariff = results.get('src/Shop/Tariff.php');
    expect(edges(tariff)).toEqual(
      expect.arrayContaining([
        'calls Tariff.price -> src/Shop/Tariff.php#Tariff.tax (scip)',
        'types Tariff.price -> src/Shop/Item.php#Item (scip)',
      ]),
    );
    expect(edges(tariff).join('\n')).not.toMatch(/round/);
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
  });

  it('fails the request with scip-php’s own message when it fails', async () => {
    const bin = join(dir, 'broken');
    const tools = { 'scip-php': writeFakeTools(bin, 'fail'), php: join(bin, 'php') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } })).rejects.toThrow(
      /scip-php exited with 1 .*Cannot read file: .*vendor\/autoload\.php/,
    );
  });

  it('loads ctype and tokenizer on php’s command line when it does not (the sandbox has no /etc/php)', () => {
    const bin = join(dir, 'php-bin');
    writeFakeTools(bin);
    expect(extensionFlags(join(bin, 'php'), process.env)).toEqual(['-d', 'extension=ctype', '-d', 'extension=tokenizer']);
    const full = join(bin, 'php-full');
    writeFileSync(full, "#!/bin/sh\nprintf '[PHP Modules]\\nCore\\nctype\\njson\\ntokenizer\\n'\n");
    chmodSync(full, 0o755);
    expect(extensionFlags(full, process.env)).toEqual([]);
    // A php that cannot list its modules: scip-php's own failure will say what is wrong.
    expect(extensionFlags(join(bin, 'no-such-php'), process.env)).toEqual([]);
  });

  it('finds no project, and says so, in a repository without composer.json', async () => {
    const bare = join(dir, 'bare');
    writeProject(bare);
    rmSync(join(bare, 'composer.json'));
    const bin = join(dir, 'bin');
    const tools = { 'scip-php': writeFakeTools(bin), php: join(bin, 'php') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), bare, FILES, { options: { tools } })).rejects.toThrow(
      /scip-php found no Composer project/,
    );
  });
});
