// One bad file or plugin never breaks the index: a plugin crashing on one file, a file that
// does not parse, an indexer killed mid-run. The database stays consistent and the next
// run completes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMisbehavePlugins } from '../helpers/fixture-plugins.js';
import { GitRepo } from '../helpers/git-repo.js';
import { travsr } from '../helpers/run-cli.js';

let plugins: Awaited<ReturnType<typeof buildMisbehavePlugins>>;
beforeAll(async () => {
  plugins = await buildMisbehavePlugins(['ok', 'slow']);
});
afterAll(() => rmSync(plugins.root, { recursive: true, force: true }));

function integrity(root: string): string {
  const db = new Database(join(root, '.travsr', 'graph.db'), { readonly: true });
  try {
    return (db.pragma('integrity_check', { simple: true }) as string) + '/' + String((db.pragma('foreign_key_check') as unknown[]).length);
  } finally {
    db.close();
  }
}

describe('failures stay per file', () => {
  it('a plugin that crashes on one file: that file is failed, the others are indexed, the next run completes', async () => {
    const repo = new GitRepo();
    const env = { TRAVSR_PLUGINS_DIRS: plugins.dir('ok'), TRAVSR_CORPUS: 'c' };
    repo.write({ 'a.txt': 'alpha', 'b.txt': 'beta', 'crash.txt': 'boom', 'd.txt': 'delta' }).commit('one');
    // the post-commit hook runs with the committer's environment: the plugin goes in the repo config
    await travsr(['config', 'set', 'plugins.dirs', plugins.dir('ok'), '--repo', repo.root]);
    const init = await travsr(['init', repo.root, '--json'], { env });
    expect(init.code, init.stderr).toBe(0);
    const s = (JSON.parse(init.stdout) as { summary: { analyzed: number; failed: number; failures: { path: string; reason: string }[] } })
      .summary;
    expect(s.analyzed).toBe(3);
    expect(s.failed).toBe(1);
    expect(s.failures[0]).toMatchObject({
      path: 'crash.txt',
      reason: expect.stringMatching(/PLUGIN_CRASHED: the plugin failed while analyzing this file/),
    });

    const status = JSON.parse((await travsr(['status', repo.root, '--json'], { env })).stdout) as {
      failed: { path: string }[];
      complete: boolean;
    };
    expect(status.failed.map((f) => f.path)).toEqual(['crash.txt']);
    expect(status.complete).toBe(true);
    expect(integrity(repo.root)).toBe('ok/0');

    repo.move('crash.txt', 'fine.txt').commit('fix');
    const after = JSON.parse((await travsr(['status', repo.root, '--json'], { env })).stdout) as {
      failed: unknown[];
      counts: { files: number };
    };
    expect(after.failed).toEqual([]);
    expect(after.counts.files).toBe(4);
    repo.dispose();
  });

  it('a file that does not parse is indexed with a diagnostic, not a failure', async () => {
    const repo = new GitRepo();
    const env = { TRAVSR_CORPUS: 'c' };
    repo
      .write({ 'ok.lua': 'local function f() return 1 end\nreturn f\n', 'broken.lua': 'local function f(\n  return 1 +\nend end end\n' })
      .commit('one');
    const r = await travsr(['init', repo.root, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const s = (JSON.parse(r.stdout) as { summary: { analyzed: number; failed: number } }).summary;
    expect(s).toMatchObject({ analyzed: 2, failed: 0 });
    const db = new Database(join(repo.root, '.travsr', 'graph.db'), { readonly: true });
    const row = db.prepare('SELECT status, diagnostics FROM files WHERE path = ?').get('broken.lua') as {
      status: string;
      diagnostics: string;
    };
    db.close();
    expect(row.status).toBe('ok');
    expect(row.diagnostics).toMatch(/PARSE_ERRORS/);
    const status = await travsr(['status', repo.root, '--json'], { env });
    expect((JSON.parse(status.stdout) as { parseErrors: Record<string, unknown> }).parseErrors.lua).toEqual({ files: 1, of: 2 });
    expect((await travsr(['status', repo.root], { env })).stdout).toMatch(/lua\s+2 files .*1 with parse errors \(50\.0%\)/);
    repo.dispose();
  });

  it('an indexer killed mid-run leaves a consistent database, and the next run completes with the full graph', async () => {
    const repo = new GitRepo();
    const env = { TRAVSR_PLUGINS_DIRS: plugins.dir('slow'), TRAVSR_CORPUS: 'c' };
    repo
      .write(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, `word${i} shared`])))
      .commit('many');
    const bin = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
    const child = execa(process.execPath, [bin, 'init', repo.root, '--no-hook'], {
      env: { ...env, TRAVSR_HOME: process.env.TRAVSR_HOME! },
      reject: false,
    });
    // the slow plugin takes 200 ms a file: kill the indexer once some files are stored. No clock
    // decides when: on a busy machine the first files may take longer than any fixed wait.
    const db = join(repo.root, '.travsr', 'graph.db');
    let exited = false;
    void child.finally(() => (exited = true));
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      if (exited) throw new Error(`travsr init finished before 5 files were stored: ${String((await child).stderr)}`);
      try {
        const reader = new Database(db, { readonly: true, fileMustExist: true });
        const n = (reader.prepare("SELECT count(*) AS n FROM files WHERE status = 'ok'").get() as { n: number }).n;
        reader.close();
        if (n >= 5) break;
      } catch {
        // the store or its tables do not exist yet
      }
    }
    child.kill('SIGKILL');
    await child;
    expect(integrity(repo.root)).toBe('ok/0');
    const interrupted = JSON.parse((await travsr(['status', repo.root, '--json'], { env })).stdout) as {
      interrupted: boolean;
      counts: { files: number };
    };
    expect(interrupted.interrupted).toBe(true);
    expect(interrupted.counts.files).toBeLessThan(40);

    const again = await travsr(['index', repo.root, '--json'], { env });
    expect(again.code, again.stderr).toBe(0);
    const s = JSON.parse(again.stdout) as { analyzed: number; unchanged: number; failed: number };
    expect(s.failed).toBe(0);
    expect(s.analyzed + s.unchanged).toBe(40);
    expect(s.unchanged).toBeGreaterThan(0);
    const graph = (await travsr(['graph', 'export', repo.root], { env })).stdout.split('\n').filter(Boolean).sort();

    const tree = repo.exportTree();
    await travsr(['init', tree, '--no-hook'], { env: { ...env, TRAVSR_PLUGINS_DIRS: plugins.dir('ok') } });
    const full = (await travsr(['graph', 'export', tree], { env })).stdout.split('\n').filter(Boolean).sort();
    expect(graph).toEqual(full);
    rmSync(tree, { recursive: true, force: true });
    repo.dispose();
  });

  it('an index run that finds no plugin at all (another ~/.travsr) refuses instead of emptying the graph', async () => {
    const repo = new GitRepo();
    repo.write({ 'm.lua': 'local function f() return 1 end\nreturn f\n' }).commit('one');
    expect((await travsr(['init', repo.root, '--no-hook'])).code).toBe(0);
    const otherHome = mkdtempSync(join(tmpdir(), 'travsr-other-home-'));
    const r = await travsr(['index', repo.root], { env: { TRAVSR_HOME: otherHome } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/Error \[NO_PLUGINS\]: no language plugin is registered .*run `travsr init/);
    const status = JSON.parse((await travsr(['status', repo.root, '--json'])).stdout) as { counts: { files: number; nodes: number } };
    expect(status.counts.files).toBe(1);
    expect(status.counts.nodes).toBeGreaterThan(1);
    repo.dispose();
  });
});
