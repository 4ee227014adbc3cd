import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexerEnv, projectDirs, toolsFor } from '../../src/scip/index.js';

const dir = mkdtempSync(join(tmpdir(), 'project-dirs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tree(root: string, files: string[]): string {
  for (const f of files) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  return root;
}

describe('projectDirs', () => {
  const root = tree(join(dir, 'repo'), [
    'pom.xml',
    'core/pom.xml',
    'tools/gen/build.gradle.kts',
    'node_modules/x/pom.xml',
    '.hidden/pom.xml',
    'apps/web/Web.csproj',
    'apps/api/sorbet/config',
  ]);

  it('keeps the outermost project by default: an outer build indexes what it holds', async () => {
    expect(await projectDirs(root, ['pom.xml', 'build.gradle.kts'])).toEqual(['']);
  });

  it('lists every project with nesting "every", skipping dependency and dot directories', async () => {
    expect(await projectDirs(root, ['pom.xml', 'build.gradle.kts'], { nesting: 'every' })).toEqual(['', 'core', 'tools/gen']);
  });

  it('matches *.ext patterns and directory names', async () => {
    expect(await projectDirs(root, ['*.csproj'])).toEqual(['apps/web']);
    expect(await projectDirs(root, ['sorbet'])).toEqual(['apps/api']);
    expect(await projectDirs(root, ['Package.swift'])).toEqual([]);
  });

  it('stops at maxDepth', async () => {
    expect(await projectDirs(root, ['build.gradle.kts'], { maxDepth: 1 })).toEqual([]);
  });
});

describe('toolsFor', () => {
  const indexer = {
    tools: ['scip-java', 'java'],
    languageName: 'Java',
    installHint: 'get scip-java',
    toolHints: { java: 'install a JDK' },
  };

  it('passes the tools the host found', () => {
    expect(toolsFor(indexer, { tools: { 'scip-java': '/t/scip-java', java: '/usr/bin/java', other: 3 } })).toEqual({
      'scip-java': '/t/scip-java',
      java: '/usr/bin/java',
    });
  });

  it('says what is missing and what to do', () => {
    expect(toolsFor(indexer, {})).toEqual({
      missing:
        'scip-java and java are not on PATH: Java is analyzed at Phase A only (names matched, not resolved); get scip-java; install a JDK',
    });
    expect(toolsFor(indexer, { tools: { 'scip-java': '/t/scip-java' } })).toEqual({
      missing: 'java is not on PATH, and scip-java needs it: Java is analyzed at Phase A only (names matched, not resolved); install a JDK',
    });
  });
});

describe('indexerEnv', () => {
  it('passes PATH with the tools first, a scratch TMPDIR and the proxy, nothing else of the plugin', () => {
    const env = indexerEnv({ 'scip-java': '/t/bin/scip-java' }, '/tmp/s', {
      PATH: '/usr/bin',
      SECRET_TOKEN: 'x',
      HTTPS_PROXY: 'http://127.0.0.1:3128',
    });
    expect(env).toEqual({
      PATH: '/t/bin:/usr/bin',
      HOME: '/tmp/s',
      LANG: 'C.UTF-8',
      TMPDIR: '/tmp/s',
      XDG_CACHE_HOME: '/tmp/s/cache',
      HTTPS_PROXY: 'http://127.0.0.1:3128',
    });
  });
});

describe('ScipAnalyzer runs', () => {
  it('pass the plugin cache directory, run a tool that writes into its project on a copy, and move a fixed-name index', async () => {
    const { ScipAnalyzer } = await import('../../src/scip/index.js');
    const { runPhaseB } = await import('../../src/testing/index.js');
    const { LineIndex } = await import('../../src/positions.js');
    const { encodeScipIndex } = await import('../../src/testing/scip-writer.js');
    const repo = tree(join(dir, 'copy-repo'), ['pom.xml', 'src/A.java', 'target/old.class', 'src/target/Keep.java']);
    writeFileSync(join(dir, 'copy-repo', 'src', 'A.java'), 'class A {}\n');
    const index = join(dir, 'fixed.scip');
    writeFileSync(index, encodeScipIndex({ projectRoot: '', documents: [] }));
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    // Writes index.scip into its working directory, and lists what the copy holds.
    writeFileSync(
      join(bin, 'tool'),
      `#!${process.execPath}\nconst fs=require('fs');fs.copyFileSync(${JSON.stringify(index)},'index.scip');fs.writeFileSync(process.argv[2], JSON.stringify({cwd: process.cwd(), files: fs.readdirSync('.', {recursive: true}).sort()}));\n`,
    );
    chmodSync(join(bin, 'tool'), 0o755);
    const seen: { cacheDir?: string | undefined }[] = [];
    const report = join(dir, 'report.json');
    const analyzer = new ScipAnalyzer(
      {
        initialize: () => Promise.resolve(),
        addTo: (_g: unknown, text: string) => ({ definitions: [], refs: [], lines: new LineIndex(text) }),
      },
      {
        name: 'tool',
        languageName: 'Java',
        tools: ['tool'],
        installHint: '',
        invocation: (run) => {
          seen.push({ cacheDir: run.cacheDir });
          return { args: [report], writes: 'index.scip' };
        },
        copyProject: { skip: ['target'] },
      },
      { scratchDir: join(dir, 'scratch'), languageOf: () => 'java' },
    );
    const { results } = await runPhaseB(analyzer, repo, [{ path: 'src/A.java', language: 'java' }], {
      options: { tools: { tool: join(bin, 'tool') }, cacheDir: '/cache/lang-java' },
    });
    expect(results.get('src/A.java')?.status ?? 'ok').toBe('ok');
    expect(seen).toEqual([{ cacheDir: '/cache/lang-java' }]);
    const r = JSON.parse(readFileSync(report, 'utf8')) as { cwd: string; files: string[] };
    expect(r.cwd).not.toBe(repo);
    // The project's own target/ is left out; a source package named target is not.
    expect(r.files).toEqual(expect.arrayContaining(['pom.xml', 'src/A.java', 'src/target/Keep.java']));
    expect(r.files.some((f) => f.startsWith('target'))).toBe(false);
  });
});
