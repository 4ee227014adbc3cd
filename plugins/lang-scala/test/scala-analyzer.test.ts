// lang-scala in process: Phase A on a realistic file, Phase B with a scip-java stand-in
// (test/fixture-project.ts) — resolved calls (a constructor call to its class), parents, overrides
// and type references, calls into the Scala library dropped, the host's proxy handed to the JVMs,
// scip-java's failure reported.
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
import { scipJavaSbt } from '../src/scip-java-sbt-indexer.js';
import { writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(
    new TagsSyntax({
      language: 'scala',
      grammar: new URL('tree-sitter-scala.wasm', dist),
      treeSitterWasm: new URL('tree-sitter.wasm', dist),
      query: readFileSync(new URL('../queries/scala.scm', import.meta.url), 'utf8'),
    }),
    scipJavaSbt,
    { scratchDir, languageOf: languageOfFiles(filesOfManifest(manifest)) },
  );

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-scala-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SRC = 'src/main/scala/shop';
const FILES = ['Priced.scala', 'BaseCart.scala', 'Pricing.scala', 'Cart.scala'].map((f) => ({ path: `${SRC}/${f}`, language: 'scala' }));
const show = (e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`;
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e) => e.kind !== 'contains')
    .map(show)
    .sort();
const toolsIn = (bin: string, mode?: Parameters<typeof writeFakeTools>[1]) => ({
  'scip-java': writeFakeTools(bin, mode),
  java: join(bin, 'java'),
  sbt: join(bin, 'sbt'),
});

// The scala case of lang-structural's languages test, which served Scala before this plugin.
const CASE = {
  file: 'src/main/scala/jobs/Scheduler.scala',
  defines: ['trait Job', 'method Job.run', 'class Every', 'class Scheduler', 'method Scheduler.apply', 'method Scheduler.log'],
  refers: [
    'imports scala.concurrent.Future <- <file>',
    'imports java.time.Clock <- <file>',
    'inherits Runnable <- Scheduler@2',
    'inherits AutoCloseable <- Scheduler@2',
    'calls Scheduler <- Scheduler.apply',
    'calls jobs.foreach <- Scheduler.run',
    'calls log <- Scheduler.run',
  ],
};

describe('lang-scala Phase A', () => {
  it('finds traits, classes, objects, methods, imports, calls and parents', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const text = readFileSync(new URL(`../snapshots/input/${CASE.file}`, import.meta.url), 'utf8');
    const graph = new FileGraphBuilder({ corpus: 'test', path: CASE.file, language: 'scala' });
    const out = await analyzer.analyzeFile(
      { path: CASE.file, language: 'scala', absolutePath: CASE.file, bytes: Buffer.from(text), text },
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

  it('says Phase B cannot run, and why, when scip-java, a JDK or sbt was not found', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.phase).toBe('B');
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-java and java and sbt are not on PATH: Scala is analyzed at Phase A only .*scip-java 0\.12\.3.*JDK.*sbt 1\.4/,
    );
    const noSbt = await newAnalyzer(join(dir, 'scratch')).initialize({
      options: { tools: { 'scip-java': '/opt/bin/scip-java', java: '/usr/bin/java' } },
    });
    expect(noSbt.unavailable?.[0]?.reason).toMatch(/^sbt is not on PATH, and scip-java needs it: .*install sbt/);
  });
});

describe('lang-scala Phase B (scip-java with sbt)', () => {
  it('turns the refs scip-java resolved into edges and drops calls into the Scala library', async () => {
    const logs: string[] = [];
    const { results, capabilities } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
      options: { tools: toolsIn(join(dir, 'bin')) },
      log: (m) => logs.push(m),
    });
    expect(capabilities).toEqual({});
    expect(logs).toContain("scip-java's indexes hold 4 files");
    const cart = results.get(`${SRC}/Cart.scala`);
    expect(cart?.status ?? 'ok').toBe('ok');
    expect(edges(cart)).toEqual(
      expect.arrayContaining([
        `calls Cart.total -> ${SRC}/Pricing.scala#Pricing.price (scip)`,
        `calls Cart.cents -> ${SRC}/Cart.scala#Cart.total (scip)`,
        `calls Cart.describe -> ${SRC}/BaseCart.scala#BaseCart.count (scip)`,
        // `new Cart()`: the primary constructor `Cart#<init>()`, which Phase A has as the class.
        `calls Cart.empty -> ${SRC}/Cart.scala#Cart (scip)`,
        `inherits Cart -> ${SRC}/BaseCart.scala#BaseCart (scip)`,
        `inherits Cart -> ${SRC}/Priced.scala#Priced (scip)`,
        `implements Cart.cents -> ${SRC}/Priced.scala#Priced.cents (scip)`,
        // A type named in a member (an object such as Pricing is a term in SemanticDB, not a type).
        `types Cart.empty -> ${SRC}/Cart.scala#Cart (scip)`,
      ]),
    );
    // println, ListBuffer#map and math.round are in the Scala library: dropped, not matched by name.
    expect(edges(cart).join('\n')).not.toMatch(/println|map|Cart@2 \(/);
    expect((cart?.refs ?? []).filter((r) => r.kind === 'calls')).toEqual([]);
    const pricing = results.get(`${SRC}/Pricing.scala`);
    expect(edges(pricing)).toContain(`calls Pricing.price -> ${SRC}/Pricing.scala#Pricing.tax (scip)`);
    expect(edges(pricing).join('\n')).not.toMatch(/round/);
    expect(edges(results.get(`${SRC}/BaseCart.scala`)).join('\n')).not.toMatch(/append/);
    for (const r of results.values()) expect(r.edges.filter((e) => e.provenance === 'phase-a')).toEqual([]);
  });

  it('hands the host’s proxy to every JVM as system properties (the stand-in refuses to run otherwise)', async () => {
    const saved = process.env['TRAVSR_PROXY_ADDRESS'];
    // The Windows form of the host's proxy: a loopback address the bridge passes on as it is.
    process.env['TRAVSR_PROXY_ADDRESS'] = '127.0.0.1:41234';
    try {
      const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, {
        options: { tools: toolsIn(join(dir, 'bin')) },
      });
      expect(edges(results.get(`${SRC}/Cart.scala`))).toContain(`calls Cart.total -> ${SRC}/Pricing.scala#Pricing.price (scip)`);
    } finally {
      if (saved === undefined) delete process.env['TRAVSR_PROXY_ADDRESS'];
      else process.env['TRAVSR_PROXY_ADDRESS'] = saved;
    }
    // The same stand-in, given HTTPS_PROXY but JVM options without it, says why it stops.
    const bad = spawnSync(join(dir, 'bin', 'scip-java'), ['index', '--build-tool=sbt', '--output', join(dir, 'x.scip')], {
      cwd: repo,
      env: {
        PATH: `${join(dir, 'bin')}:/usr/bin:/bin`,
        TERM: 'dumb',
        COURSIER_CACHE: join(dir, 'cs'),
        HTTPS_PROXY: 'http://127.0.0.1:41234',
        JAVA_TOOL_OPTIONS: '-Duser.home=/h -Dsbt.global.base=/g -Dsbt.boot.directory=/b -Dsbt.ivy.home=/i -Dsbt.server.autostart=false',
      },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/JAVA_TOOL_OPTIONS lacks -Dhttps\.proxyHost=127\.0\.0\.1/);
  });

  it('fails the request with scip-java’s own message when it fails', async () => {
    await expect(
      runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools: toolsIn(join(dir, 'broken'), 'fail') } }),
    ).rejects.toThrow(/scip-java exited with 1 .*Compilation failed/);
  });
});
