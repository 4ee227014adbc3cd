import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
