import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emptySummary, type IndexSummary } from '../../src/indexer/index-summary.js';
import { claimTree } from '../../src/indexer/tree-claims.js';
import { LanguageMap, walkRepository, type WalkEntry } from '../../src/indexer/walk/index.js';
import { makeTree } from './walk/temp-tree.js';

// Step 1 of an index run: which plugin claims each file, and what the summary says of the rest.

const luaManifest = JSON.parse(readFileSync(new URL('../../../plugins/example-lua/travsr-plugin.json', import.meta.url), 'utf8'));
const map = () => LanguageMap.fromPlugins([{ id: 'example-lua', manifest: luaManifest }]);
const dataManifest = JSON.parse(readFileSync(new URL('../../../plugins/lang-data/travsr-plugin.json', import.meta.url), 'utf8'));

const summary = (): IndexSummary => emptySummary('full', '');

describe('claimTree', () => {
  const tree = () =>
    makeTree({
      'src/a.lua': 'return 1\n',
      'src/big.lua': 'x'.repeat(200),
      'src/bin.lua': Buffer.from('a\0b'),
      'README.md': '# hi\n',
      'notes.txt': 'x',
    });

  it('claims the files a plugin serves; counts what it leaves out by reason, and unclaimed files by extension', async () => {
    const s = summary();
    const seen: string[] = [];
    const c = await claimTree(
      tree(),
      map(),
      { maxFileBytes: 100, exclude: [], followSymlinks: false, onClaimed: (path, plugin) => seen.push(`${plugin} ${path}`) },
      s,
    );
    expect(seen).toEqual(['example-lua src/a.lua']); // as each is claimed: the run starts the plugin then
    expect([...c.claimed]).toEqual([['src/a.lua', { language: 'lua', plugin: 'example-lua' }]]);
    expect(Object.fromEntries([...c.skipped].map(([p, v]) => [p, v.reason]))).toEqual({
      'src/big.lua': 'too-large',
      'src/bin.lua': 'binary',
    });
    expect(s).toMatchObject({ filesSeen: 1, skipped: { 'too-large': 1, binary: 1 }, unclaimed: { '.md': 1, '.txt': 1 } });
  });

  it('with a listing from a walk with a broader map (init), claims and counts what its own walk would', async () => {
    const root = makeTree({
      'src/a.lua': 'return 1\n',
      'src/big.lua': 'x'.repeat(200),
      'src/bin.lua': Buffer.from('a\0b'),
      'data/big.json': `[${'1,'.repeat(100)}1]`,
      'data/bin.json': Buffer.from('{\0}'),
      'data/ok.json': '{}',
      'README.md': '# hi\n',
      'ignored/x.lua': 'return 2\n',
      '.gitignore': 'ignored/\n',
    });
    const settings = { maxFileBytes: 100, exclude: [], followSymlinks: false };
    const walked = summary();
    const expected = await claimTree(root, map(), settings, walked);

    const broader = LanguageMap.fromPlugins([
      { id: 'example-lua', manifest: luaManifest },
      { id: 'lang-data', manifest: dataManifest },
    ]);
    const entries: WalkEntry[] = [];
    for await (const e of walkRepository(root, { ...settings, languageMap: broader, reportUnclaimed: true })) entries.push(e);
    expect(entries.some((e) => e.path === 'data/ok.json' && e.kind === 'file')).toBe(true); // the broader map claimed it

    const replayed = summary();
    const c = await claimTree(root, map(), { ...settings, listing: { entries, map: broader } }, replayed);
    expect([...c.claimed]).toEqual([...expected.claimed]);
    expect([...c.skipped]).toEqual([...expected.skipped]);
    expect(replayed).toEqual(walked);
  });

  it('with `changed`, only those files are opened: the others are claimed as listed', async () => {
    const s = summary();
    const c = await claimTree(
      tree(),
      map(),
      { maxFileBytes: 100, exclude: [], followSymlinks: false, changed: new Set(['src/big.lua']) },
      s,
    );
    expect([...c.claimed.keys()]).toEqual(['src/a.lua', 'src/bin.lua']);
    expect([...c.skipped.keys()]).toEqual(['src/big.lua']);
  });

  it('with `known`, walks only toward the changed files: the stored ones are claimed as stored, the deleted ones not', async () => {
    const root = makeTree({
      'src/a.lua': 'return 1\n',
      'src/new.lua': 'return 2\n',
      'src/ignored.lua': 'return 3\n',
      'lib/deep/b.lua': 'return 4\n',
      'lib/untracked.lua': 'return 5\n', // deleted by the commit, still in the working tree
      '.gitignore': 'src/ignored.lua\n',
    });
    const stored = new Map<string, { status: 'ok' | 'failed' | 'skipped' }>([
      ['lib/deep/b.lua', { status: 'ok' }],
      ['src/gone.lua', { status: 'ok' }],
      ['src/huge.lua', { status: 'skipped' }],
      ['README.md', { status: 'ok' }], // no plugin claims it any more
    ]);
    const s = summary();
    const c = await claimTree(
      root,
      map(),
      {
        maxFileBytes: 100,
        exclude: [],
        followSymlinks: false,
        changed: new Set(['src/new.lua', 'src/ignored.lua']),
        known: { deleted: new Set(['src/gone.lua', 'lib/untracked.lua']), stored },
      },
      s,
    );
    // src/a.lua is neither stored nor changed: not walked to. The ignore rules still hold for what is.
    expect([...c.claimed.keys()].sort()).toEqual(['lib/deep/b.lua', 'lib/untracked.lua', 'src/new.lua']);
    expect(s.filesSeen).toBe(3);

    // A changed ignore file can change what the whole tree claims: the whole tree is walked.
    const again = await claimTree(
      root,
      map(),
      { maxFileBytes: 100, exclude: [], followSymlinks: false, changed: new Set(['.gitignore']), known: { deleted: new Set(), stored } },
      summary(),
    );
    expect([...again.claimed.keys()].sort()).toEqual(['lib/deep/b.lua', 'lib/untracked.lua', 'src/a.lua', 'src/new.lua']);
  });
});
