// lang-clang in process: Phase A of C and C++ (the grammar picked by the file's language),
// the compilation database found and moved into the sandbox's view, Phase B with a scip-clang
// stand-in (test/fixture-project.ts): resolved calls and type references, library calls dropped.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Edge } from '@travsr/protocol';
import { FileGraphBuilder, type FileResult } from '@travsr/sdk';
import { ScipAnalyzer } from '@travsr/sdk/scip';
import { SyntaxByLanguage, TagsSyntax } from '@travsr/sdk/tree-sitter';
import { runPhaseB } from '@travsr/sdk/testing';
import { findCompilationDatabase, projectOfDatabase, rewriteCompilationDatabase } from '../src/compilation-database.js';
import { languageOf } from '../src/languages.js';
import { scipClang } from '../src/scip-clang-indexer.js';
import { HOST_ROOT, writeFakeTools, writeProject } from './fixture-project.js';

const dist = new URL('../dist/', import.meta.url);
const tags = (language: 'c' | 'cpp') =>
  new TagsSyntax({
    language,
    grammar: new URL(`tree-sitter-${language}.wasm`, dist),
    treeSitterWasm: new URL('tree-sitter.wasm', dist),
    query: readFileSync(new URL(`../queries/${language}.scm`, import.meta.url), 'utf8'),
  });
const newAnalyzer = (scratchDir: string) =>
  new ScipAnalyzer(new SyntaxByLanguage({ c: tags('c'), cpp: tags('cpp') }), scipClang, { scratchDir, languageOf });

let dir: string;
let repo: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lang-clang-'));
  repo = join(dir, 'repo');
  writeProject(repo);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILES = ['src/ring.h', 'src/ring.c', 'src/main.c'].map((path) => ({ path, language: 'c' }));
const edges = (r: FileResult | undefined) =>
  (r?.edges ?? [])
    .filter((e: Edge) => e.kind !== 'contains')
    .map((e: Edge) => `${e.kind} ${e.src.signature || e.src.path} -> ${e.dst.path}#${e.dst.signature} (${e.provenance})`)
    .sort();

describe('lang-clang Phase A', () => {
  it('parses C with the C grammar and C++ with the C++ one', async () => {
    const analyzer = newAnalyzer(join(dir, 'scratch'));
    await analyzer.initialize({ options: {} });
    const analyze = async (path: string) => {
      const text = readFileSync(new URL(`../snapshots/input/${path}`, import.meta.url), 'utf8');
      const language = languageOf(path)!;
      const graph = new FileGraphBuilder({ corpus: 'test', path, language });
      const out = await analyzer.analyzeFile({ path, language, absolutePath: path, bytes: Buffer.from(text), text }, { graph });
      return out.nodes.filter((n) => n.kind !== 'file').map((n) => `${n.kind} ${n.qualifiedName ?? n.name}`);
    };
    expect(languageOf('src/ring.h')).toBe('c');
    expect(languageOf('geo/shapes.hpp')).toBe('cpp');
    expect(await analyze('src/ring.c')).toEqual(expect.arrayContaining(['function ring_new']));
    expect((await analyze('geo/shapes.cpp')).some((d) => d.startsWith('method ') || d.startsWith('function '))).toBe(true);
    // A prototype or a member declaration is not a definition.
    expect(await analyze('src/ring.h')).not.toContain('function ring_new');
    expect(await analyze('geo/shapes.hpp')).not.toContain('method geo.Circle.area');
  });

  it('says Phase B cannot run, and why, without scip-clang', async () => {
    const caps = await newAnalyzer(join(dir, 'scratch')).initialize({ options: {} });
    expect(caps.unavailable?.[0]?.reason).toMatch(
      /^scip-clang is not on PATH: C and C\+\+ is analyzed at Phase A only .*scip-clang\/releases/,
    );
  });
});

describe('the compilation database', () => {
  it('is found at the root or in a build directory', () => {
    expect(findCompilationDatabase(repo)).toBe('build/compile_commands.json');
    const bare = join(dir, 'bare');
    mkdirSync(join(bare, 'tools', 'gen'), { recursive: true });
    expect(findCompilationDatabase(bare)).toBeUndefined();
    writeFileSync(join(bare, 'tools', 'gen', 'compile_commands.json'), '[]');
    expect(findCompilationDatabase(bare)).toBe('tools/gen/compile_commands.json');
    // scip-clang runs from the project the database belongs to.
    expect(projectOfDatabase('build/compile_commands.json')).toBe('');
    expect(projectOfDatabase('engine/cmake-build-debug/compile_commands.json')).toBe('engine');
    expect(projectOfDatabase('tools/gen/compile_commands.json')).toBe('tools/gen');
  });

  it('is moved from the machine that generated it into the repository as the sandbox shows it', () => {
    const out = join(dir, 'moved.json');
    const r = rewriteCompilationDatabase(join(repo, 'build', 'compile_commands.json'), out, repo);
    expect(r).toEqual({ entries: 2, prefix: HOST_ROOT });
    const moved = JSON.parse(readFileSync(out, 'utf8')) as { directory: string; file: string; arguments: string[] }[];
    expect(moved[0]).toEqual({
      directory: `${repo}/build`,
      file: `${repo}/src/main.c`,
      arguments: ['cc', `-I${repo}/src`, '-o', 'CMakeFiles/ring.dir/src/main.c.o', '-c', `${repo}/src/main.c`],
    });
  });

  it('refuses one that names no file of the repository, saying what to do', () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify([{ directory: '/x', file: '/x/nothing/here.c', command: 'cc -c here.c' }]));
    expect(() => rewriteCompilationDatabase(other, join(dir, 'o.json'), repo)).toThrow(
      /names no file of the repository .*generate it again/,
    );
    writeFileSync(other, '{"not": "a list"}');
    expect(() => rewriteCompilationDatabase(other, join(dir, 'o.json'), repo)).toThrow(/is not a list of/);
  });
});

describe('lang-clang Phase B (scip-clang)', () => {
  it('resolves calls and type references through the index, and drops calls into libraries', async () => {
    const tools = { 'scip-clang': writeFakeTools(join(dir, 'bin')) };
    const { results } = await runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } });
    const main = results.get('src/main.c');
    expect(main?.status ?? 'ok').toBe('ok');
    expect(edges(main)).toEqual(
      expect.arrayContaining(['calls main -> src/ring.c#ring_push (scip)', 'types main -> src/ring.h#ring (scip)']),
    );
    expect(edges(main).join('\n')).not.toMatch(/printf/);
    expect(edges(results.get('src/ring.c'))).toContain('calls ring_push -> src/ring.c#clamp (scip)');
  });

  it('says what to do when the repository has no compile_commands.json', async () => {
    const bare = join(dir, 'no-compdb');
    writeProject(bare);
    rmSync(join(bare, 'build'), { recursive: true });
    const tools = { 'scip-clang': writeFakeTools(join(dir, 'bin')) };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), bare, FILES, { options: { tools } })).rejects.toThrow(
      /needs a compile_commands\.json .*CMAKE_EXPORT_COMPILE_COMMANDS/,
    );
  });

  it('fails the request with scip-clang’s own message when it fails', async () => {
    const tools = { 'scip-clang': writeFakeTools(join(dir, 'broken'), 'fail') };
    await expect(runPhaseB(newAnalyzer(join(dir, 'scratch')), repo, FILES, { options: { tools } })).rejects.toThrow(
      /scip-clang exited with 1 .*could not compile it/,
    );
  });
});
