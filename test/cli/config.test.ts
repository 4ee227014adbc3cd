// The real `travsr config` commands on temporary repositories: where each value comes from,
// precedence across files and the environment, and a broken file as a clear error.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-config-cli-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A fresh repository directory and its own TRAVSR_HOME, so tests do not see each other's user file. */
function setup(name: string) {
  const repo = join(work, name);
  const home = join(work, `${name}-home`);
  mkdirSync(repo, { recursive: true });
  return { repo, home, file: join(repo, '.travsr', 'config.toml'), userFile: join(home, 'config.toml'), env: { TRAVSR_HOME: home } };
}

type ListJson = {
  files: { repo: string; user: string };
  values: Record<string, { value: unknown; source: string; origin?: string }>;
  warnings: { key: string; origin: string; message: string }[];
};

describe('travsr config', () => {
  it('set writes .travsr/config.toml and get shows the value with file:line', async () => {
    const t = setup('set-get');
    const set = await travsr(['config', 'set', 'index.workers', '3'], { cwd: t.repo, env: t.env });
    expect(set.stderr).toBe('');
    expect(set.code).toBe(0);
    expect(set.stdout).toBe(`index.workers = 3  (written to ${t.file})`);
    expect(readFileSync(t.file, 'utf8')).toMatch(/^\[index\]\nworkers = 3$/m);

    const line = readFileSync(t.file, 'utf8').split('\n').indexOf('workers = 3') + 1;
    const get = await travsr(['config', 'get', 'index.workers'], { cwd: t.repo, env: t.env });
    expect(get.code).toBe(0);
    expect(get.stdout).toBe(`index.workers = 3  (repo: ${t.file}:${line})`);

    const json = await travsr(['config', 'get', 'index.workers', '--json'], { cwd: t.repo, env: t.env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      key: 'index.workers',
      value: 3,
      source: 'repo',
      origin: `${t.file}:${line}`,
      env: 'TRAVSR_INDEX_WORKERS',
    });
  });

  it('an environment variable overrides the files, and set says so', async () => {
    const t = setup('env');
    await travsr(['config', 'set', 'log.level', 'info'], { cwd: t.repo, env: t.env });
    const get = await travsr(['config', 'get', 'log.level'], { cwd: t.repo, env: { ...t.env, TRAVSR_LOG_LEVEL: 'debug' } });
    expect(get.stdout).toBe('log.level = "debug"  (env: TRAVSR_LOG_LEVEL)');
    const set = await travsr(['config', 'set', 'log.level', 'error'], { cwd: t.repo, env: { ...t.env, TRAVSR_LOG_LEVEL: 'debug' } });
    expect(set.code).toBe(0);
    expect(set.stderr).toContain('note: here the value is "debug", from env: TRAVSR_LOG_LEVEL, which takes precedence');
    const bad = await travsr(['config', 'get', 'log.level'], { cwd: t.repo, env: { ...t.env, TRAVSR_LOG_LEVEL: 'loud' } });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^Error \[CONFIG_INVALID\]: environment variable TRAVSR_LOG_LEVEL: log\.level must be one of debug, info, warn, error, got "loud"/,
    );
  });

  it('--global writes ~/.travsr/config.toml, which the repository file overrides', async () => {
    const t = setup('global');
    const g = await travsr(['config', 'set', 'sandbox.tier', 'native-ipc', '--global'], { cwd: t.repo, env: t.env });
    expect(g.stdout).toBe(`sandbox.tier = "native-ipc"  (written to ${t.userFile})`);
    let get = await travsr(['config', 'get', 'sandbox.tier'], { cwd: t.repo, env: t.env });
    expect(get.stdout).toMatch(new RegExp(`^sandbox.tier = "native-ipc"  \\(user: ${t.userFile}:\\d+\\)$`));
    await travsr(['config', 'set', 'sandbox.tier', 'elevated'], { cwd: t.repo, env: t.env });
    get = await travsr(['config', 'get', 'sandbox.tier'], { cwd: t.repo, env: t.env });
    expect(get.stdout).toMatch(/^sandbox.tier = "elevated"  \(repo: .*config\.toml:\d+\)$/);
    const again = await travsr(['config', 'set', 'sandbox.tier', 'standard', '--global'], { cwd: t.repo, env: t.env });
    expect(again.stderr).toMatch(/note: here the value is "elevated", from repo: .*, which takes precedence/);

    const unset = await travsr(['config', 'unset', 'sandbox.tier'], { cwd: t.repo, env: t.env });
    expect(unset.code).toBe(0);
    expect(unset.stdout).toMatch(
      new RegExp(`^sandbox.tier removed from ${t.file}\\nsandbox.tier = "standard"  \\(user: ${t.userFile}:\\d+\\)$`),
    );
    const twice = await travsr(['config', 'unset', 'sandbox.tier'], { cwd: t.repo, env: t.env });
    expect(twice.stdout).toMatch(/^sandbox.tier was not set in /);
  });

  it('list --json gives every key with value, source and origin, and --repo picks the repository', async () => {
    const t = setup('list');
    await travsr(['config', 'set', 'index.exclude', 'vendor/**,*.gen.ts'], { cwd: t.repo, env: t.env });
    await travsr(['config', 'set', 'plugins.prefer.python', 'lang-python'], { cwd: t.repo, env: t.env });
    const r = await travsr(['config', 'list', '--json', '--repo', t.repo], { cwd: work, env: { ...t.env, TRAVSR_HOOK_ENABLED: 'false' } });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as ListJson;
    expect(out.files).toEqual({ repo: t.file, user: t.userFile });
    expect(Object.keys(out.values)).toEqual([
      'corpus',
      'index.maxFileBytes',
      'index.workers',
      'index.exclude',
      'index.followSymlinks',
      'index.semantic',
      'retrieval.synonyms',
      'plugins.prefer',
      'plugins.options',
      'plugins.dirs',
      'plugins.network',
      'plugins.cacheMax',
      'lang.scipCommand',
      'lang.scipTier',
      'lang.scipNetwork',
      'analyze.deadline',
      'analyze.deadlinePerFile',
      'analyze.total',
      'registry.url',
      'registry.trustedKeys',
      'registry.deadline',
      'registry.allowedLicences',
      'sandbox.tier',
      'log.level',
      'hook.enabled',
      'daemon.debounce',
      'daemon.maxWatchedDirectories',
      'daemon.scanInterval',
      'daemon.cacheEntries',
      'daemon.cacheMax',
      'daemon.toolWorkers',
      'daemon.warmPlugins',
      'daemon.pluginIdle',
      'daemon.pluginMemory',
      'mcp.oauthIssuer',
      'mcp.oauthAudience',
      'mcp.oauthResource',
      'mcp.oauthJwksUri',
      'mcp.oauthGroupsClaim',
      'mcp.oauthCorporaClaim',
      'mcp.oauthJwksCache',
    ]);
    expect(out.values['index.exclude']).toEqual({
      value: ['vendor/**', '*.gen.ts'],
      source: 'repo',
      origin: expect.stringMatching(/config\.toml:\d+$/),
    });
    expect(out.values['plugins.prefer']).toMatchObject({ value: { python: 'lang-python' }, source: 'repo' });
    expect(out.values['hook.enabled']).toEqual({ value: false, source: 'env', origin: 'TRAVSR_HOOK_ENABLED' });
    expect(out.values['index.maxFileBytes']).toEqual({ value: 1048576, source: 'default' });

    const text = await travsr(['config', 'list'], { cwd: t.repo, env: t.env });
    expect(text.stdout).toMatch(/^KEY\s+VALUE\s+SOURCE\s+ORIGIN$/m);
    expect(text.stdout).toMatch(/^index\.exclude\s+\["vendor\/\*\*", "\*\.gen\.ts"\]\s+repo\s+\S+config\.toml:\d+$/m);
    expect(text.stdout).toMatch(/^log\.level\s+"warn"\s+default$/m);
  });

  it('a broken config file exits 1 with Error [CONFIG_INVALID]: <file>:<line>', async () => {
    const t = setup('broken');
    mkdirSync(join(t.repo, '.travsr'));
    writeFileSync(t.file, '[index]\nworkers = 2\nmaxFileBytes = "big"\n');
    for (const args of [
      ['config', 'list'],
      ['config', 'get', 'corpus'],
    ]) {
      const r = await travsr(args, { cwd: t.repo, env: t.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(
        `Error [CONFIG_INVALID]: ${t.file}:3: index.maxFileBytes must be an integer ≥ 1 (bytes), got "big" (a string); fix the file or run \`travsr config unset index.maxFileBytes\``,
      );
    }
    // The suggested fix works, and the file's other values survive it.
    expect((await travsr(['config', 'unset', 'index.maxFileBytes'], { cwd: t.repo, env: t.env })).code).toBe(0);
    expect((await travsr(['config', 'get', 'index.workers'], { cwd: t.repo, env: t.env })).stdout).toMatch(/= 2 {2}\(repo: /);

    writeFileSync(t.file, 'corpus = "x"\n[index\n');
    const syntax = await travsr(['config', 'list'], { cwd: t.repo, env: t.env });
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(
      new RegExp(`^Error \\[CONFIG_INVALID\\]: ${t.file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: TOML syntax error: `),
    );
    const set = await travsr(['config', 'set', 'corpus', 'y'], { cwd: t.repo, env: t.env });
    expect(set.code).toBe(1);
    expect(readFileSync(t.file, 'utf8')).toBe('corpus = "x"\n[index\n');
  });

  it('an unknown key is an error listing close names; an unknown key in a file is a warning', async () => {
    const t = setup('unknown');
    const r = await travsr(['config', 'get', 'index.wrkers'], { cwd: t.repo, env: t.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Error [CONFIG_UNKNOWN_KEY]: unknown config key "index.wrkers"; did you mean index.workers? (`travsr config list` shows every key)',
    );
    const s = await travsr(['config', 'set', 'maxFileBytes', '10'], { cwd: t.repo, env: t.env });
    expect(s.code).toBe(1);
    expect(s.stderr).toMatch(/did you mean index\.maxFileBytes\?/);
    const v = await travsr(['config', 'set', 'index.workers', 'lots'], { cwd: t.repo, env: t.env });
    expect(v.code).toBe(1);
    expect(v.stderr).toBe('Error [CONFIG_INVALID]: index.workers must be an integer ≥ 1, got "lots"; nothing was written');

    mkdirSync(join(t.repo, '.travsr'));
    writeFileSync(t.file, '[log]\nlevle = "debug"\n');
    const list = await travsr(['config', 'list', '--json'], { cwd: t.repo, env: t.env });
    expect(list.code).toBe(0);
    expect(list.stderr).toBe(`warning: ${t.file}:2: unknown key "log.levle" is ignored (did you mean log.level?)`);
    expect((JSON.parse(list.stdout) as ListJson).warnings).toMatchObject([{ key: 'log.levle', origin: `${t.file}:2` }]);
  });
});
