// The real `travsr trust` command: what it shows before recording, --revoke, --list, a
// repository without a config file, and `config set` of the user's own keeping the trust.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-trust-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Several CLI runs per test on a busy 2-core box.
const SLOW = { timeout: 240_000 };

function setup(name: string) {
  const repo = join(work, name, 'repo');
  const home = join(work, name, 'home');
  mkdirSync(join(repo, '.travsr'), { recursive: true });
  const run = (args: string[]) => travsr(args, { cwd: repo, env: { TRAVSR_HOME: home } });
  return { repo, home, file: join(repo, '.travsr', 'config.toml'), store: join(home, 'trusted-repositories.json'), run };
}

describe('travsr trust', () => {
  it('names the security keys it enables, records path and hash privately, lists and revokes', SLOW, async () => {
    const t = setup('main');
    writeFileSync(t.file, '[index]\nworkers = 2\n[sandbox]\ntier = "elevated"\n');
    const trust = await t.run(['trust']);
    expect(trust.code, trust.stderr).toBe(0);
    expect(trust.stdout).toMatch(
      new RegExp(`^trusting ${t.file} \\(sha256 [0-9a-f]{12}…\\); these settings now count in ${t.repo}:$`, 'm'),
    );
    expect(trust.stdout).toContain(`  sandbox.tier = "elevated"  (${t.file}:4)`);
    expect(trust.stdout).not.toContain('index.workers');
    expect(statSync(t.store).mode & 0o777).toBe(0o600);
    expect(readFileSync(t.store, 'utf8')).toContain(t.repo);
    expect((await t.run(['config', 'get', 'sandbox.tier'])).stdout).toBe(`sandbox.tier = "elevated"  (repo: ${t.file}:4)`);

    const list = await t.run(['trust', '--list']);
    expect(list.stdout).toMatch(new RegExp(`^trusted  ${t.repo}  trusted \\S+$`, 'm'));

    const revoke = await t.run(['trust', '--revoke']);
    expect(revoke.stdout).toBe(`no longer trusted: ${t.repo} (its security settings are ignored again)`);
    const get = await t.run(['config', 'get', 'sandbox.tier']);
    expect(get.stdout).toBe('sandbox.tier = "standard"  (default)');
    expect(get.stderr).toContain(`${t.file}:4: sandbox.tier is ignored: this repository is not trusted`);
    expect((await t.run(['trust', '--list'])).stdout).toBe('no repository is trusted');
  });

  it('a repository without a config file has nothing to trust; a broken file is refused, not trusted', SLOW, async () => {
    const t = setup('empty');
    const none = await t.run(['trust', '--json']);
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ trusted: false, securityKeys: [] });
    writeFileSync(t.file, '[sandbox]\ntier = "root"\n');
    const broken = await t.run(['trust']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^Error \[CONFIG_INVALID\]: .*config\.toml:2: sandbox\.tier must be one of/);
  });

  it("`config set` of the user's own keeps a file trusted, but never launders keys the user did not trust", SLOW, async () => {
    const t = setup('edit');
    expect((await t.run(['config', 'set', 'sandbox.tier', 'native-ipc'])).code).toBe(0);
    expect((await t.run(['config', 'get', 'sandbox.tier'])).stdout).toMatch(/\(repo: /);

    writeFileSync(t.file, '[plugins]\ndirs = ["evil"]\n');
    const set = await t.run(['config', 'set', 'index.workers', '2']);
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('holds security keys you have not trusted (plugins.dirs)');
    expect((await t.run(['config', 'get', 'plugins.dirs'])).stdout).toBe('plugins.dirs = []  (default)');
  });
});
