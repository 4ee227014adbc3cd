// Incremental reindex on every commit, through the real post-commit hook, must leave the
// same graph as a full index of the same tree.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

const env = { TRAVSR_CORPUS: 'github.com/test/app' };
let repo: GitRepo;

async function exported(dir: string): Promise<string[]> {
  const r = await travsr(['graph', 'export', '--format', 'jsonl', dir], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean).sort();
}

/** Full index of the committed tree in a fresh directory: the reference graph. */
async function fullGraphOfHead(): Promise<string[]> {
  const tree = repo.exportTree();
  try {
    const r = await travsr(['init', tree, '--no-hook', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    return await exported(tree);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}

async function expectIncrementalEqualsFull(): Promise<void> {
  const log = readFileSync(join(repo.root, '.travsr', 'hook.log'), 'utf8');
  expect(log).not.toMatch(/travsr hook-run: /);
  // The reference index of a copy of the tree runs alongside the export: neither touches the other.
  const [incremental, full] = await Promise.all([exported(repo.root), fullGraphOfHead()]);
  expect(incremental.length).toBeGreaterThan(0);
  expect(incremental).toEqual(full);
}

const lua = {
  'src/app/init.lua': `local util = require("app.util")\nlocal M = {}\n\nfunction M.run(args)\n  return util.join(args, ",")\nend\n\nreturn M\n`,
  'src/app/util.lua': `local M = {}\n\nfunction M.join(list, sep)\n  return table.concat(list, sep)\nend\n\nfunction M.trim(s)\n  return (s:gsub("^%s+", ""))\nend\n\nreturn M\n`,
  'bin/main.lua': `local app = require("app")\napp.run(arg)\n`,
};

beforeAll(async () => {
  repo = new GitRepo();
  repo.write(lua).commit('first commit');
  // The hook runs with the committer's environment, so the corpus goes in the repository's config.
  const set = await travsr(['config', 'set', 'corpus', env.TRAVSR_CORPUS, '--repo', repo.root]);
  expect(set.code, set.stderr).toBe(0);
  const r = await travsr(['init', repo.root, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { summary: { analyzed: number }; steps: string[] };
  expect(out.summary.analyzed).toBe(3);
  expect(out.steps.join('\n')).toMatch(/post-commit hook created/);
});
afterAll(() => repo.dispose());

describe('incremental reindex through the post-commit hook', () => {
  it('after init, the graph equals a full index', async () => {
    const [incremental, full] = await Promise.all([exported(repo.root), fullGraphOfHead()]);
    expect(incremental).toEqual(full);
  });

  it('a modified file (a function renamed, so a name-matched call moves)', async () => {
    repo.write({ 'src/app/util.lua': lua['src/app/util.lua'].replace('function M.join', 'function M.concat') }).commit('rename join');
    await expectIncrementalEqualsFull();
    const r = await travsr(['status', repo.root, '--json'], { env });
    expect((JSON.parse(r.stdout) as { lastIndexedCommit: string }).lastIndexedCommit).toBe(repo.git('rev-parse', 'HEAD').trim());
  });

  it('an added file that makes a name ambiguous', async () => {
    repo.write({ 'src/app/other.lua': `local M = {}\nfunction M.run() return 1 end\nreturn M\n` }).commit('add other');
    await expectIncrementalEqualsFull();
  });

  it('a rename, and a rename with an edit', async () => {
    repo.move('bin/main.lua', 'bin/cli.lua').commit('rename');
    await expectIncrementalEqualsFull();
    repo
      .move('src/app/other.lua', 'src/app/more.lua')
      .write({ 'src/app/more.lua': `local M = {}\nfunction M.more() return 2 end\nreturn M\n` })
      .commit('rename + edit');
    await expectIncrementalEqualsFull();
  });

  it('a deleted file', async () => {
    repo.remove('src/app/more.lua').commit('delete');
    await expectIncrementalEqualsFull();
  });

  it('a commit that only touches files no plugin claims, and an empty commit', async () => {
    repo.write({ 'README.md': '# app\n' }).commit('docs');
    await expectIncrementalEqualsFull();
    repo.commit('empty');
    await expectIncrementalEqualsFull();
  });

  it('a merge commit', async () => {
    repo.git('checkout', '-q', '-b', 'feature');
    repo
      .write({
        'src/app/feature.lua': `local M = {}\nfunction M.feature() return M.helper() end\nfunction M.helper() return 3 end\nreturn M\n`,
      })
      .commit('feature');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'src/app/util.lua': lua['src/app/util.lua'] + '\n-- main side\n' }).commit('main side');
    repo.git('merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    // git merge runs post-merge, not post-commit: the next hook run catches up from the last indexed commit
    const r = await travsr(['hook-run', repo.root], { env });
    expect(r.code, r.stderr).toBe(0);
    await expectIncrementalEqualsFull();
  });

  it("commits the hook did not see: the next run indexes everything since the last indexed commit, not only HEAD's change", async () => {
    process.env.TRAVSR_HOOK_DISABLE = '1';
    try {
      repo.write({ 'src/app/missed.lua': `local M = {}\nfunction M.missed() return 1 end\nreturn M\n` }).commit('missed by the hook');
      repo.write({ 'bin/main.lua': lua['bin/main.lua'] + '-- edited later\n' }).commit('seen by the next run');
    } finally {
      delete process.env.TRAVSR_HOOK_DISABLE;
    }
    const r = await travsr(['hook-run', repo.root, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { analyzed: number }).analyzed).toBeGreaterThanOrEqual(2);
    await expectIncrementalEqualsFull();
  });

  it('files whose bytes did not change are skipped by their hash', async () => {
    const r = await travsr(['index', repo.root, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { analyzed: number; unchanged: number };
    expect(s.analyzed).toBe(0);
    expect(s.unchanged).toBeGreaterThanOrEqual(4);
  });
});
