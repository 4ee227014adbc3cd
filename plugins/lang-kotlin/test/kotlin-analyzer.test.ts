// lang-kotlin in process: Phase A on a realistic file, Phase B with a scip-java stand-in
// (test/fixture-project.ts) — resolved calls, inheritance, implementations and type references,
// constructor calls resolved, calls into the standard library dropped, UTF-16 positions, the copy
// the build runs on, the JVM proxy settings, the build's failure reported.
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
import { scipJavaKotlin as scipJava } from '../src/scip-java-indexer.js';
import { PROJECT_FILES, writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string, indexer: ScipIndexer = scipJava) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'kotlin',
      grammar: new URL('tree-sitter-kotlin.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/kotlin.scm', import.meta.url), 'utf8'),
    }),
    indexer,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-kotlin-'));
  repo = join(dir, 'repo');
  // A Gradle build in a directory of the repository, as the end-to-end test lays it out.
  writeProject(join(repo, 'shop'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SRC = 'shop/src/main/kotlin/shop';
// The Gradle scripts are Kotlin files too (.kts), which scip-java does not index.
const FILES = Object.keys(PROJECT_FILES).map((p) => ({ path: `shop/${p}`, language: 'kotlin' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();

describe('lang-kotlin Phase A', () => {
  it('finds classes, interfaces, objects, functions, extension functions and type aliases, imports, calls and supertypes', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const path = 'src/main/kotlin/app/TaskRepository.kt';
    const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path, language: 'kotlin' });
    const out = await analyzer.analyzeFile({ path, language: 'kotlin', absolutePath: path, bytes: Buffer.from(text), text }, { graph });
    expect(out.diagnostics ?? []).toEqual([]);
    expect(out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName}`)).toEqual(
      expect.arrayContaining([
        'class Task',
        'interface TaskStore',
        'method TaskStore.save',
        'class Result.Ok',
        'class TaskRepository',
        'method TaskRepository.complete',
        'method TaskRepository.inMemory',
        'function Task.describe',
        'enum Priority',
        'type TaskId',
      ]),
    );
    expect((out.refs ?? []).map((r) => `${r.kind} ${r.name} <- ${r.src.signature || '<file>'}`)).toEqual(
      expect.arrayContaining([
        'imports kotlinx.coroutines.flow.Flow <- <file>',
        'inherits BaseRepository <- TaskRepository',
        'implements AutoCloseable <- TaskRepository',
        'calls store.save <- TaskRepository.complete',
        'calls Result.Ok <- TaskRepository.complete',
        'calls MemoryStore <- TaskRepository.inMemory',
      ]),
    );
  });

  it('says Phase B cannot run, and why, when scip-java or a JDK was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-java and java are not on PATH: Kotlin is analyzed at Phase A only .*scip-java.*JDK 17/,
    );
    const noJdk = await newAnalyzer(join(dir, 'scratch')).initialize({ options: { tools: { 'scip-java': '/opt/bin/scip-java' } } });
    expect(noJdk.unavailable?.[0]?.reason).toMatch(/^java is not on PATH, and scip-java needs it: .*install a JDK 17 or newer/);
  });
});

describe('lang-kotlin Phase B (scip-java)', () => {
  const saved = process.env['TRAVSR_PROXY_ADDRESS'];
  afterEach(() => {
    if (saved === undefined) delete process.env['TRAVSR_PROXY_ADDRESS'];
    else process.env['TRAVSR_PROXY_ADDRESS'] = saved;
  });

  it('turns the refs scip-java resolved into edges, constructor calls too, and drops calls into the standard library', async () => {
    const bin = join(dir, 'bin');
    const tools = { 'scip-java': writeFakeTools(bin), java: join(bin, 'java') };
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-java's indexes hold 5 files");
    const cart = results.get(`${SRC}/Cart.kt`);
    expect(cart?.status ?? 'ok').toBe('ok');
    expect(edges(cart)).toEqual(
      expect.arrayContaining([
        `calls Cart.total -> ${SRC}/Pricing.kt#Pricing.price (scip)`,
        // An inherited method: the symbol is the declaring class's.
        `calls Cart.fill -> ${SRC}/BaseCart.kt#BaseCart.add (scip)`,
        `calls describe -> ${SRC}/Cart.kt#Cart.total (scip)`,
        // After the em dash: scip-java's UTF-16 columns, converted to Phase A's UTF-8 ones.
        `calls describe -> ${SRC}/Cart.kt#format (scip)`,
        `inherits Cart -> ${SRC}/BaseCart.kt#BaseCart (scip)`,
        `types Cart.total -> ${SRC}/Pricing.kt#Pricing (scip)`,
        `types describe -> ${SRC}/Cart.kt#Cart (scip)`,
        // `Item("pen", 120)` refers to `Item#<init>().`, the primary constructor, defined at the
        // class name: Phase A has no node for it, so the class.
        `calls Cart.fill -> ${SRC}/Item.kt#Item (scip)`,
        // `Item("gift")`: the secondary constructor, defined inside the class: the class too.
        `calls sample -> ${SRC}/Item.kt#Item (scip)`,
        `calls sample -> ${SRC}/Cart.kt#Cart (scip)`,
        `calls sample -> ${SRC}/BaseCart.kt#BaseCart.add (scip)`,
      ]),
    );
    // sumOf, toString, apply are the standard library's: dropped, not matched by name.
    expect(edges(cart).join('\n')).not.toMatch(/sumOf|toString|apply/);
    expect((cart?.refs ?? []).filter((r) => r.kind === 'calls')).toEqual([]);
    expect(edges(results.get(`${SRC}/Pricing.kt`))).toEqual(
      expect.arrayContaining([
        `calls Pricing.price -> ${SRC}/Pricing.kt#Pricing.tax (scip)`,
        `calls Pricing.price -> ${SRC}/Priced.kt#Priced.cents (scip)`,
        `types Pricing.price -> ${SRC}/Priced.kt#Priced (scip)`,
      ]),
    );
    expect(edges(results.get(`${SRC}/Pricing.kt`)).join('\n')).not.toMatch(/roundToLong|imports/);
    expect(edges(results.get(`${SRC}/Item.kt`))).toEqual(
      expect.arrayContaining([
        `implements Item -> ${SRC}/Priced.kt#Priced (scip)`,
        `implements Item.cents -> ${SRC}/Priced.kt#Priced.cents (scip)`,
      ]),
    );
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
    // A build script is outside the index: its refs stay, for name matching, and it says why.
    const script = results.get('shop/build.gradle.kts');
    expect(script?.diagnostics?.map((d) => d.code)).toEqual(['NOT_IN_SCIP_INDEX']);
    expect((script?.refs ?? []).map((r) => `${r.kind} ${r.name}`)).toEqual(expect.arrayContaining(['calls kotlin', 'calls mavenCentral']));
  });

  it('gives every JVM the proxy in JAVA_TOOL_OPTIONS in the elevated tier', async () => {
    // As the host passes its proxy on Windows (a loopback address the bridge hands on as it is).
    process.env['TRAVSR_PROXY_ADDRESS'] = '127.0.0.1:3128';
    const bin = join(dir, 'bin-proxy');
    const tools = { 'scip-java': writeFakeTools(bin), java: join(bin, 'java') };
    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools, cacheDir: join(dir, 'cache') },
    });
    expect(edges(results.get(`${SRC}/Cart.kt`))).toContain(`calls Cart.total -> ${SRC}/Pricing.kt#Pricing.price (scip)`);
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
      'build/classes/kotlin/main/shop/Cart.class',
      '.gradle/8.10/fileHashes/fileHashes.bin',
      '.kotlin/sessions/s.salive',
      '.idea/workspace.xml',
      'src/main/kotlin/shop/build/Step.kt',
      'buildSrc/.gradle/8.10/fileHashes/fileHashes.bin',
      'buildSrc/build/classes/Plugin.class',
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
    expect(edges(results.get(`${SRC}/Cart.kt`))).toContain(`calls Cart.total -> ${SRC}/Pricing.kt#Pricing.price (scip)`);
    expect(copied).toEqual([
      'src/main/kotlin/shop/build/Step.kt',
      // buildSrc's stale output is copied (only a cost); Gradle's caches never are.
      'buildSrc/build/classes/Plugin.class',
    ]);
  });

  it('fails the request with scip-java’s own message when the build fails', async () => {
    const bin = join(dir, 'broken');
    const tools = { 'scip-java': writeFakeTools(bin, 'fail'), java: join(bin, 'java') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } })).rejects.toThrow(
      /scip-java exited with 1 .*Unresolved reference 'sumOf'.*Build failed/,
    );
  });
});
