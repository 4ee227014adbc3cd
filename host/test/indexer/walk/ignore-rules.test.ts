import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IgnoreRules, MATCHER_CACHE_LIMIT, rebasePattern } from '../../../src/indexer/walk/index.js';
import { makeTree, skips, walkedFiles } from './temp-tree.js';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (root: string, ...args: string[]) => execFileSync('git', args, { cwd: root, env: gitEnv, encoding: 'utf8' });

/** What git itself would add: untracked files that no ignore rule leaves out. */
const gitVisible = (root: string) => git(root, 'ls-files', '-z', '--others', '--exclude-standard').split('\0').filter(Boolean).sort();

describe('gitignore semantics (git itself is the oracle)', () => {
  it('nested .gitignore files with negations, anchors, directory-only patterns and .git/info/exclude match git', async () => {
    const root = makeTree({
      '.gitignore': [
        '*.log',
        'build/',
        '/root-only.txt',
        '!keep.log',
        'docs/**/*.tmp',
        '\\#hash.txt',
        'logs/',
        '!logs/keep.txt',
        'cache/',
        '',
      ].join('\n'),
      'root-only.txt': 'x',
      'sub/root-only.txt': 'kept: the pattern is anchored to the root',
      'app.log': 'x',
      'keep.log': 'kept by a negation',
      'build/out.js': 'x',
      'sub/build': 'a file named build: directory-only patterns do not match it',
      'docs/a/b/x.tmp': 'x',
      'docs/x.tmp': 'x',
      'docs/x.md': 'kept',
      '#hash.txt': 'x',
      'logs/keep.txt': 'stays out: its directory is excluded',
      'cache/c.txt': 'x',
      'pkg/.gitignore': '!cache/\n',
      'pkg/cache/c.txt': 'kept: a deeper file re-includes the directory',
      'src/.gitignore': ['!important.log', 'generated/', '/local.txt', '*.snap', '# a comment', '', 'trailing.txt   '].join('\r\n'),
      'src/important.log': 'kept',
      'src/x.log': 'x',
      'src/generated/g.ts': 'x',
      'src/deep/generated/h.ts': 'x',
      'src/local.txt': 'x',
      'src/deep/local.txt': 'kept: /local.txt is anchored to src/',
      'local.txt': 'kept: src/.gitignore does not apply here',
      'src/a.snap': 'x',
      'other/a.snap': 'kept',
      'src/trailing.txt': 'x',
      'src/lib/.gitignore': '*\n!*.ts\n!.gitignore\n',
      'src/lib/x.ts': 'kept',
      'src/lib/x.js': 'x',
      'we[ird]/.gitignore': '*.txt\n',
      'we[ird]/a.txt': 'x',
      'we[ird]/b.md': 'kept',
      '#dir/.gitignore': 'x\n',
      '#dir/x': 'x',
      '#dir/y': 'kept',
      '!bang/.gitignore': '/x\n',
      '!bang/x': 'x',
      '!bang/y': 'kept',
      'secret.env': 'x',
      'sub/secret.env': 'x',
      'Mixed.CASE': 'kept: git is case-sensitive here',
    });
    git(root, 'init', '-q');
    writeFileSync(join(root, '.git', 'info', 'exclude'), 'secret.env\n*.case\n');

    const expected = gitVisible(root);
    expect(expected).toContain('pkg/cache/c.txt');
    expect(expected).not.toContain('logs/keep.txt');
    expect(await walkedFiles(root)).toEqual(expected);
  });

  it('honours .git/info/exclude when .git is a file pointing elsewhere (a worktree)', async () => {
    const main = makeTree({ 'a.txt': 'a' });
    git(main, 'init', '-q');
    git(main, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
    const wt = join(main, '..', `${main.split('/').pop()}-wt`);
    git(main, 'worktree', 'add', '-q', wt);
    writeFileSync(join(main, '.git', 'info', 'exclude'), 'hidden.txt\n');
    writeFileSync(join(wt, 'hidden.txt'), 'x');
    writeFileSync(join(wt, 'shown.txt'), 'x');
    expect(gitVisible(wt)).toEqual(['shown.txt']);
    expect(await walkedFiles(wt)).toEqual(['shown.txt']);
  });
});

describe('.travsrignore and the exclude option', () => {
  it('.travsrignore uses the same syntax and nesting, and overrides .gitignore', async () => {
    const root = makeTree({
      '.gitignore': 'dist/\n*.gen.ts\n',
      '.travsrignore': '*.md\n!api.gen.ts\n!dist/\ndist/*.map\n',
      'README.md': 'x',
      'sub/.travsrignore': '!NOTES.md\n/local/\n',
      'sub/NOTES.md': 'kept: a deeper negation',
      'sub/other.md': 'x',
      'sub/local/a.lua': 'x',
      'sub/deeper/local/b.lua': 'kept: /local/ is anchored to sub/',
      'api.gen.ts': 'kept: re-included over .gitignore',
      'types.gen.ts': 'x',
      'dist/index.js': 'kept: dist/ re-included',
      'dist/index.js.map': 'x',
    });
    expect(await walkedFiles(root)).toEqual([
      '.gitignore',
      '.travsrignore',
      'api.gen.ts',
      'dist/index.js',
      'sub/.travsrignore',
      'sub/NOTES.md',
      'sub/deeper/local/b.lua',
    ]);
  });

  it('the exclude option overrides every ignore file, both ways', async () => {
    const root = makeTree({
      '.gitignore': '*.log\n!important.snap\n',
      'a.snap': 'x',
      'important.snap': 'x: the config exclude wins over the negation',
      'keep.log': 'kept: the config negation wins over *.log',
      'other.log': 'x',
      'test/fixtures/f.lua': 'x',
      'test/t.lua': 'kept',
    });
    expect(await walkedFiles(root, { exclude: ['*.snap', 'test/fixtures/', '!keep.log'] })).toEqual([
      '.gitignore',
      'keep.log',
      'test/t.lua',
    ]);
  });

  it('reportIgnored names the file, line and pattern that left each path out', async () => {
    const root = makeTree({
      '.gitignore': '# build output\nout/\n',
      'src/.gitignore': '\n*.tmp\n',
      'src/a.tmp': 'x',
      'out/x.js': 'x',
      'x.snap': 'x',
      'secret.env': 'x',
    });
    mkdirSync(join(root, '.git', 'info'), { recursive: true });
    writeFileSync(join(root, '.git', 'info', 'exclude'), 'secret.env\n');
    expect(await skips(root, { exclude: ['*.snap'], reportIgnored: true })).toEqual({
      'out/': 'ignored: ignored by .gitignore:2 (`out/`)',
      'secret.env': 'ignored: ignored by .git/info/exclude:1 (`secret.env`)',
      'src/a.tmp': 'ignored: ignored by src/.gitignore:2 (`*.tmp`)',
      'x.snap': 'ignored: ignored by exclude option [0] (`*.snap`)',
    });
  });
});

describe('rebasePattern', () => {
  it('anchors patterns with a slash to their directory and lets the others match at any depth', () => {
    expect(rebasePattern('*.log', 'src')).toBe('src/**/*.log');
    expect(rebasePattern('/out', 'src')).toBe('src/out');
    expect(rebasePattern('a/b', 'src')).toBe('src/a/b');
    expect(rebasePattern('build/', 'src')).toBe('src/**/build/');
    expect(rebasePattern('!keep.log', 'src')).toBe('!src/**/keep.log');
    expect(rebasePattern('# comment', 'src')).toBeUndefined();
    expect(rebasePattern('', 'src')).toBeUndefined();
    expect(rebasePattern('*.log', '')).toBe('*.log');
    expect(rebasePattern('x', 'we[ird]/#d')).toBe('we\\[ird\\]/#d/**/x');
    expect(rebasePattern('x', '#d')).toBe('\\#d/**/x');
  });
});

describe('IgnoreMatcher', () => {
  it('gives the same verdicts after it has started over past its cache limit, parent exclusions included', () => {
    const rules = IgnoreRules.create({ exclude: ['out/', '*.log', '!keep.log'] });
    const matcher = rules.withDirectory('', {}).matcher();
    const verdicts = () => [
      matcher.check('out/keep.log', false),
      matcher.check('src/a.log', false),
      matcher.check('src/keep.log', false),
      matcher.check('src/a.ts', false),
      matcher.check('src/out', true),
    ];
    const before = verdicts();
    expect(before.map((v) => v !== undefined)).toEqual([true, true, false, false, true]);
    for (let i = 0; i <= MATCHER_CACHE_LIMIT; i++) matcher.check(`deep/${i}/file.ts`, false);
    expect(verdicts()).toEqual(before);
  });
});
