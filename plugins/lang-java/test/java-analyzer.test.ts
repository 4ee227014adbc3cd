// lang-java in process: Phase A on a realistic file, Phase B with a scip-java stand-in
// (test/fixture-project.ts) — resolved calls, inheritance, implementations and type references,
// constructor calls resolved, calls into the JDK dropped, UTF-16 positions, the copy the build runs
// on, the JVM proxy settings, scip-java's failure reported.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Edge } from '@travsr/protocol';
import { FileGraphBuilder, filesOfManifest, languageOfFiles, type FileResult } from '@travsr/sdk';
import { ScipAnalyzer, type ScipIndexer } from '@travsr/sdk/scip';
import { TagsSyntax } from '@travsr/sdk/tree-sitter';
import { runPhaseB } from '@travsr/sdk/testing';
import manifest from '../travsr-plugin.json' with { type: 'json' };
import { scipJava } from '../src/scip-java-indexer.js';
import { PROJECT_FILES, writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string, indexer: ScipIndexer = scipJava) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'java',
      grammar: new URL('tree-sitter-java.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/java.scm', import.meta.url), 'utf8'),
    }),
    indexer,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-java-'));
  repo = join(dir, 'repo');
  // A Maven project in a directory of the repository, as the end-to-end test lays it out.
  writeProject(join(repo, 'shop'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SRC = 'shop/src/main/java/com/example/shop';
const FILES = Object.keys(PROJECT_FILES)
  .filter((p) => p.endsWith('.java'))
  .map((p) => ({ path: `shop/${p}`, language: 'java' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();

describe('lang-java Phase A', () => {
  it('finds classes, interfaces, enums, methods and constructors, imports, calls and inheritance', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'com/example/billing/InvoiceService.java';
    const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'java' });
    const out = await analyzer.analyzeFile({ path, language: 'java', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining([
        'class InvoiceService',
        'constructor InvoiceService.InvoiceService',
        'method InvoiceService.create',
        'class InvoiceService.Line',
        'enum InvoiceService.Status',
        'method InvoiceService.Batch.run',
        'interface Notifier',
        'method Notifier.log',
      ]),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining([
        'imports java.util.function.Function <- <file>',
        'imports java.util.Objects.requireNonNull <- <file>',
        'inherits AbstractService <- InvoiceService',
        'implements Notifier <- InvoiceService',
        'calls repository.save <- InvoiceService.create',
        'calls Invoice <- InvoiceService.create',
        'calls notify <- InvoiceService.create',
        'calls Line.amount <- InvoiceService.create',
      ]),
    );
  });

  it('says Phase B cannot run, and why, when scip-java or a JDK was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-java and java are not on PATH: Java is analyzed at Phase A only .*scip-java.*JDK 17/,
    );
    const noJdk = await newAnalyzer(join(dir, 'scratch')).initialize({ options: { tools: { 'scip-java': '/opt/bin/scip-java' } } });
    expect(noJdk.unavailable?.[0]?.reason).toMatch(/^java is not on PATH, and scip-java needs it: .*install a JDK 17 or newer/);
  });
});

describe('lang-java Phase B (scip-java)', () => {
  const saved = process.env['TRAVSR_PROXY_ADDRESS'];
  afterEach(() => {
    if (saved === undefined) delete process.env['TRAVSR_PROXY_ADDRESS'];
    else process.env['TRAVSR_PROXY_ADDRESS'] = saved;
  });

  it('turns the refs scip-java resolved into edges, constructor calls too, and drops calls into the JDK', async () => {
    const bin = join(dir, 'bin');
    const tools = { 'scip-java': writeFakeTools(bin), java: join(bin, 'java') };
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-java's indexes hold 5 files");
    const cart = results.get(`${SRC}/Cart.java`);
    expect(cart?.status ?? 'ok').toBe('ok');
    expect(edges(cart)).toEqual(
      expect.arrayContaining([
        `calls Cart.total -> ${SRC}/Pricing.java#Pricing.price (scip)`,
        // An inherited method: the symbol is the declaring class's.
        `calls Cart.fill -> ${SRC}/BaseCart.java#BaseCart.add (scip)`,
        // After the em dash: scip-java's UTF-16 columns, converted to Phase A's UTF-8 ones.
        `calls Cart.describe -> ${SRC}/Cart.java#Cart.total (scip)`,
        `inherits Cart -> ${SRC}/BaseCart.java#BaseCart (scip)`,
        `types Cart.total -> ${SRC}/Item.java#Item (scip)`,
        `types Cart.total -> ${SRC}/Pricing.java#Pricing (scip)`,
        // `new Item(…)` refers to `Item#<init>().`: the constructor Item declares.
        `calls Cart.fill -> ${SRC}/Item.java#Item.Item (scip)`,
        // `new Cart()`: Cart declares none (scip-java defines the implicit one at the class name): the class.
        `calls Cart.empty -> ${SRC}/Cart.java#Cart (scip)`,
      ]),
    );
    // String.format, List.size are the JDK's: dropped, not matched by name.
    expect(edges(cart).join('\n')).not.toMatch(/format|size/);
    expect((cart?.refs ?? []).filter((r) => r.kind === 'calls')).toEqual([]);
    expect(edges(results.get(`${SRC}/Pricing.java`))).toEqual(
      expect.arrayContaining([
        `calls Pricing.price -> ${SRC}/Pricing.java#Pricing.tax (scip)`,
        `calls Pricing.price -> ${SRC}/Priced.java#Priced.cents (scip)`,
        `types Pricing.price -> ${SRC}/Priced.java#Priced (scip)`,
      ]),
    );
    // java.util's imports are the JDK's (the namespace `java/util`, which no file here is in): dropped.
    const baseCart = results.get(`${SRC}/BaseCart.java`);
    expect(edges(baseCart).filter((e) => e.startsWith('imports'))).toEqual([]);
    expect((baseCart?.refs ?? []).filter((r) => r.kind === 'imports')).toEqual([]);
    // `new ArrayList<>()` is the JDK's constructor: dropped, not matched to a class by name.
    expect(edges(baseCart).join('\n')).not.toMatch(/ArrayList/);
    expect(edges(results.get(`${SRC}/Item.java`))).toEqual(
      expect.arrayContaining([
        `implements Item -> ${SRC}/Priced.java#Priced (scip)`,
        `implements Item.cents -> ${SRC}/Priced.java#Priced.cents (scip)`,
      ]),
    );
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
  });

  it('gives every JVM the proxy in JAVA_TOOL_OPTIONS in the elevated tier', async () => {
    // As the host passes its proxy on Windows (a loopback address the bridge hands on as it is).
    process.env['TRAVSR_PROXY_ADDRESS'] = '127.0.0.1:3128';
    const bin = join(dir, 'bin-proxy');
    const tools = { 'scip-java': writeFakeTools(bin), java: join(bin, 'java') };
    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools, cacheDir: join(dir, 'cache') },
    });
    expect(edges(results.get(`${SRC}/Cart.java`))).toContain(`calls Cart.total -> ${SRC}/Pricing.java#Pricing.price (scip)`);
    // The stand-in checks it: without the JVM options the build could not download anything.
    const base = scipJava;
    const proxyless = {
      ...base,
      invocation: (run: Parameters<typeof base.invocation>[0]) => {
        const inv = base.invocation(run);
        return { ...inv, env: { ...inv.env, JAVA_TOOL_OPTIONS: '' } };
      },
    };
    const syntax = newAnalyzer(join(dir, 'scratch')).syntax;
    await expect(
      runPhaseB(new ScipAnalyzer(syntax, proxyless, { scratchDir: join(dir, 'scratch') }), repo, FILES, { options: { tools } }),
    ).rejects.toThrow(/JAVA_TOOL_OPTIONS lacks -Dhttps.proxyHost=127.0.0.1/);
  });

  it('runs the build on a copy without the build output at the top, but with a source package named build', async () => {
    const copyRepo = join(dir, 'repo-copy');
    writeProject(join(copyRepo, 'shop'));
    const extra = [
      'target/classes/com/example/shop/Cart.class',
      'build/tmp/stale',
      'out/production/Cart.class',
      '.idea/workspace.xml',
      '.gradle/8.10/fileHashes/fileHashes.bin',
      'src/main/java/com/example/shop/build/Step.java',
      'src/main/java/com/example/shop/target/Goal.java',
      'tools/.gradle/8.10/fileHashes/fileHashes.bin',
      'tools/build/classes/Tool.class',
    ];
    for (const path of extra) {
      mkdirSync(join(copyRepo, 'shop', path, '..'), { recursive: true });
      writeFileSync(join(copyRepo, 'shop', path), '');
    }
    let copied: string[] = [];
    const recording: ScipIndexer = {
      ...scipJava,
      invocation: (run) => {
        copied = extra.filter((p) => existsSync(join(run.projectDir, p)));
        return scipJava.invocation(run);
      },
    };
    const bin = join(dir, 'bin-copy');
    const tools = { 'scip-java': writeFakeTools(bin), java: join(bin, 'java') };
    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch'), recording), copyRepo, FILES, { options: { tools } });
    expect(edges(results.get(`${SRC}/Cart.java`))).toContain(`calls Cart.total -> ${SRC}/Pricing.java#Pricing.price (scip)`);
    expect(copied).toEqual([
      'src/main/java/com/example/shop/build/Step.java',
      'src/main/java/com/example/shop/target/Goal.java',
      // A module's stale output is copied (its build's `clean` deletes it); Gradle's caches never are.
      'tools/build/classes/Tool.class',
    ]);
  });

  it('fails the request with scip-java’s own message when the build fails', async () => {
    const bin = join(dir, 'broken');
    const tools = { 'scip-java': writeFakeTools(bin, 'fail'), java: join(bin, 'java') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } })).rejects.toThrow(
      /scip-java exited with 1 .*Compilation failure/,
    );
  });
});
