import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphFileParams, VName } from '@travsr/protocol';
import { commentStyleFor, renderAnnotatedSource, snapshotTest, SnapshotMismatchError, unifiedDiff } from '../../src/testing/index.js';
import { buildFixturePlugin, type FixturePlugin } from '../helpers.js';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', 'x', 'y')).toBe('');
  });

  it('writes hunks with three lines of context and correct line counts', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'].join('\n') + '\n';
    const after = ['1', '2', '3', '4', 'five', '6', '7', '8', '9', '10', '11', '12', '13'].join('\n') + '\n';
    expect(unifiedDiff(before, after, 'stored/a.lua', 'actual/a.lua')).toBe(
      [
        '--- stored/a.lua',
        '+++ actual/a.lua',
        '@@ -2,7 +2,7 @@',
        ' 2',
        ' 3',
        ' 4',
        '-5',
        '+five',
        ' 6',
        ' 7',
        ' 8',
        '@@ -10,3 +10,4 @@',
        ' 10',
        ' 11',
        ' 12',
        '+13',
        '',
      ].join('\n'),
    );
  });

  it('merges nearby changes into one hunk and handles insertion into an empty file', () => {
    expect(unifiedDiff('a\nb\nc\n', 'A\nb\nC\n', 'l', 'r')).toBe('--- l\n+++ r\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n-c\n+C\n');
    expect(unifiedDiff('', 'x\n', 'l', 'r')).toBe('--- l\n+++ r\n@@ -0,0 +1,1 @@\n+x\n');
  });

  it('says so when only the final newline differs', () => {
    expect(unifiedDiff('a\n', 'a', 'l', 'r')).toContain('differ only in line endings or the final newline');
  });
});

describe('commentStyleFor', () => {
  it('picks the comment syntax by extension or file name', () => {
    expect(commentStyleFor('src/a.ts')).toEqual({ start: '//' });
    expect(commentStyleFor('a/b.py')).toEqual({ start: '#' });
    expect(commentStyleFor('init.lua')).toEqual({ start: '--' });
    expect(commentStyleFor('core.clj')).toEqual({ start: ';' });
    expect(commentStyleFor('docs/index.html')).toEqual({ start: '<!--', end: ' -->' });
    expect(commentStyleFor('styles/site.css')).toEqual({ start: '/*', end: ' */' });
    expect(commentStyleFor('Dockerfile')).toEqual({ start: '#' });
  });
});

describe('renderAnnotatedSource', () => {
  const v = (signature: string, path = 'src/m.lua'): VName => ({ corpus: 'c', root: '', path, language: 'lua', signature });
  const file: GraphFileParams = {
    requestId: 1,
    path: 'src/m.lua',
    language: 'lua',
    phase: 'A',
    status: 'ok',
    nodes: [
      { vname: v(''), kind: 'file', name: 'm.lua' },
      {
        vname: v('M.run'),
        kind: 'function',
        name: 'run',
        qualifiedName: 'M.run',
        range: { startLine: 2, startCol: 0, endLine: 4, endCol: 3 },
        skeleton: 'function M.run(x)',
      },
      { vname: v('helper'), kind: 'function', name: 'helper', range: { startLine: 6, startCol: 6, endLine: 6, endCol: 27 } },
      { vname: v('run@2'), kind: 'function', name: 'go', range: { startLine: 6, startCol: 6, endLine: 6, endCol: 27 } },
    ],
    edges: [
      { src: v(''), dst: v('M.run'), kind: 'contains', confidence: 1, provenance: 'phase-a' },
      { src: v('M.run'), dst: v('util', 'src/util.lua'), kind: 'calls', confidence: 0.5, provenance: 'phase-a' },
    ],
    refs: [
      { src: v('M.run'), kind: 'calls', name: 'print', range: { startLine: 3, startCol: 22, endLine: 3, endCol: 27 } },
      { src: v(''), kind: 'imports', name: 'json', range: { startLine: 1, startCol: 22, endLine: 1, endCol: 28 } },
    ],
    diagnostics: [{ severity: 'warning', code: 'PARSE_ERRORS', message: '1 syntax error' }],
  };
  const source = 'local json = require("json")\nfunction M.run(x)\n  local s = "→ é"; print(s)\nend\n\nlocal function helper() end\n';

  it('marks every occurrence under its line, aligned in characters, with a sorted footer', () => {
    expect(renderAnnotatedSource(source, file)).toBe(
      [
        'local json = require("json")',
        '--                    ^^^^^^ reference imports json',
        'function M.run(x)',
        '-- ^^^^^^^^^^^^^^^^^ definition function M.run [2:0-4:3]',
        '  local s = "→ é"; print(s)',
        '--                 ^^^^^ reference calls print (from M.run)',
        'end',
        '',
        'local function helper() end',
        '--    ^^^^^^^^^^^^^^^^^^^^^ definition function helper',
        '--    ^^^^^^^^^^^^^^^^^^^^^ definition function run@2 (name go)',
        '-- ----- travsr snapshot: src/m.lua (lua, phase A, status ok) -----',
        '-- diagnostic warning PARSE_ERRORS: 1 syntax error',
        '-- node file <file> (m.lua)',
        '-- skeleton M.run: "function M.run(x)"',
        '-- edge calls M.run -> c/src/util.lua#util (confidence 0.5, phase-a)',
        '-- edge contains <file> -> M.run (confidence 1, phase-a)',
        '',
      ].join('\n'),
    );
  });
});

describe('snapshotTest', () => {
  let plugin: FixturePlugin;
  beforeAll(async () => {
    plugin = await buildFixturePlugin({ 'lib/a.fx': 'def alpha\ncall beta\n', 'b.fx': 'def beta\n' });
  });
  afterAll(() => plugin.cleanup());
  const outputDir = () => join(plugin.dir, 'snapshots', 'output');

  it('fails when no snapshot is stored, then writes them with update, then passes', async () => {
    await expect(snapshotTest({ pluginDir: plugin.dir, update: false })).rejects.toThrow(/no stored snapshot/);
    const created = await snapshotTest({ pluginDir: plugin.dir, update: true });
    expect(created.files).toEqual([
      { path: 'b.fx', status: 'created' },
      { path: 'lib/a.fx', status: 'created' },
    ]);
    expect(readFileSync(join(outputDir(), 'lib/a.fx'), 'utf8')).toBe(
      [
        'def alpha',
        '// ^^^^^^^^^ definition function alpha [1:0-1:9]',
        'call beta',
        '//   ^^^^ reference calls beta (from alpha)',
        '// ----- travsr snapshot: lib/a.fx (fixture, phase A, status ok) -----',
        '// node file <file> (a.fx)',
        '// skeleton alpha: "def alpha"',
        '// edge contains <file> -> alpha (confidence 1, phase-a)',
        '',
      ].join('\n'),
    );
    const again = await snapshotTest({ pluginDir: plugin.dir, update: false });
    expect(again.files.every((f) => f.status === 'unchanged')).toBe(true);
  });

  it('fails with a diff and the update command when the output changes', async () => {
    await snapshotTest({ pluginDir: plugin.dir, update: true });
    writeFileSync(join(plugin.repo, 'b.fx'), 'def beta\ncall gamma\n');
    try {
      const error = await snapshotTest({ pluginDir: plugin.dir, update: false, updateCommand: 'npm run snapshots:update' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SnapshotMismatchError);
      const message = (error as SnapshotMismatchError).message;
      expect(message).toContain('1 snapshot(s)');
      expect(message).toContain(
        '--- stored/b.fx\n+++ actual/b.fx\n@@ -1,5 +1,7 @@\n def beta\n // ^^^^^^^^ definition function beta [1:0-1:8]\n+call gamma\n+//   ^^^^^ reference calls gamma (from beta)\n',
      );
      expect(message).toContain('accept it with:\n  npm run snapshots:update');
      expect((error as SnapshotMismatchError).code).toBe('SNAPSHOT_MISMATCH');
    } finally {
      writeFileSync(join(plugin.repo, 'b.fx'), 'def beta\n');
    }
  });

  it('treats a stored snapshot without input as a failure, and update removes it', async () => {
    await snapshotTest({ pluginDir: plugin.dir, update: true });
    writeFileSync(join(outputDir(), 'gone.fx'), 'old\n');
    await expect(snapshotTest({ pluginDir: plugin.dir, update: false })).rejects.toThrow(
      /gone\.fx: stored snapshot has no input file any more/,
    );
    const r = await snapshotTest({ pluginDir: plugin.dir, update: true });
    expect(r.files).toContainEqual({ path: 'gone.fx', status: 'removed' });
    expect(existsSync(join(outputDir(), 'gone.fx'))).toBe(false);
  });

  it('reads the update flag from TRAVSR_UPDATE_SNAPSHOTS', async () => {
    rmSync(outputDir(), { recursive: true, force: true });
    process.env.TRAVSR_UPDATE_SNAPSHOTS = '1';
    try {
      const r = await snapshotTest({ pluginDir: plugin.dir });
      expect(r.files.map((f) => f.status)).toEqual(['created', 'created']);
    } finally {
      delete process.env.TRAVSR_UPDATE_SNAPSHOTS;
    }
  });
});
