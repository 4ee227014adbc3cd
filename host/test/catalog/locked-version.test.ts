// Per-repository locks at index time: lang.toml is shared by every repository, so a repository
// whose .travsr/plugins.lock names another version of a registered plugin must run that version
// (checked against the lock's tree hash before launch) or nothing — never the registered one.
// Real plugin directories in a temporary TRAVSR_HOME, real lang.toml and lock files, the real
// catalog, and the real supervisor for the launch-time check.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeHash } from '@travsr/registry';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registeredPlugins, type RegisteredPlugin } from '../../src/catalog/registered-plugins.js';
import { LangError } from '../../src/catalog/errors.js';
import { configSha256, trustRepository } from '../../src/config/index.js';
import { installedPluginDir, installedPluginsRoot, lockedInstallAdvice, pluginCopyFor } from '../../src/catalog/locked-version.js';
import { pluginsLockPath, writePluginsLock, type LockEntry } from '../../src/catalog/plugins-lock.js';
import { writeLangToml, type PluginEntry } from '../../src/catalog/lang-toml.js';
import { PluginSupervisor } from '../../src/plugins/supervisor.js';
import type { LaunchSpec } from '../../src/sandbox/index.js';

const ID = 'tiny-lua';

let savedHome: string | undefined;
let savedCwd: string;
let root: string;
let pluginsRoot: string;
/** Tree hashes of the installed copies, by version. */
const trees: Record<string, string> = {};

/** Installs `ID@version` as `travsr lang install` lays it out: `<TRAVSR_HOME>/plugins/<id>/<version>/`. */
async function installCopy(version: string): Promise<string> {
  const dir = installedPluginDir(pluginsRoot, ID, version);
  mkdirSync(join(dir, 'dist'), { recursive: true });
  // The shape of plugins/example-lua/travsr-plugin.json, with a tiny entrypoint.
  const manifest = {
    id: ID,
    version,
    description: 'A tiny Lua plugin for tests',
    languages: ['lua'],
    extensions: ['.lua'],
    entrypoint: { runtime: 'node', path: 'dist/main.js' },
    protocolVersions: ['1'],
    phases: ['A'],
    constraints: { network: false, ipc: 'none', hostApi: false },
  };
  writeFileSync(join(dir, 'travsr-plugin.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'dist', 'main.js'), `// ${ID} ${version}\nprocess.exit(0);\n`);
  trees[version] = await treeHash(dir);
  return dir;
}

/** lang.toml registers `version` for lua, with a grant that is not the default. */
function register(version: string): PluginEntry {
  const entry: PluginEntry = {
    version,
    dir: installedPluginDir(pluginsRoot, ID, version),
    treeHash: trees[version]!,
    tier: 'elevated',
    networkAllow: ['plugins.example.org'],
  };
  writeLangToml({ languages: { lua: { plugin: ID, allowUnsandboxed: true } }, plugins: { [ID]: entry } });
  return entry;
}

function lockEntry(version: string, tree = trees[version]!): LockEntry {
  return { version, constraint: version, registry: 'builtin', sha256: 'a'.repeat(64), treeHash: tree };
}

/** A repository whose `.travsr/plugins.lock` holds `lock` (none when undefined). */
function repoLocking(name: string, lock?: Record<string, LockEntry>): string {
  const repo = join(root, name);
  mkdirSync(join(repo, '.travsr'), { recursive: true });
  if (lock) writePluginsLock(pluginsLockPath(repo), lock);
  return repo;
}

async function catalogFor(repoRoot: string) {
  return registeredPlugins([], { repoRoot });
}

function only(plugins: RegisteredPlugin[]): RegisteredPlugin {
  expect(plugins.map((p) => p.plugin.label)).toHaveLength(1);
  return plugins[0]!;
}

beforeEach(async () => {
  savedHome = process.env.TRAVSR_HOME;
  savedCwd = process.cwd();
  root = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-locked-')));
  process.env.TRAVSR_HOME = join(root, 'home');
  pluginsRoot = installedPluginsRoot();
  await installCopy('0.1.0');
  await installCopy('0.2.0');
});

afterEach(() => {
  process.chdir(savedCwd);
  if (savedHome === undefined) delete process.env.TRAVSR_HOME;
  else process.env.TRAVSR_HOME = savedHome;
});

describe('pluginCopyFor', () => {
  it('uses lang.toml when the repository has no lock entry, or locks the registered version', () => {
    const registered = register('0.2.0');
    const repo = { root: join(root, 'r'), pluginsRoot };
    const expected = { dir: registered.dir, version: '0.2.0', treeHash: trees['0.2.0'], chosenBy: 'lang.toml' };
    expect(pluginCopyFor(ID, registered, { ...repo, locked: undefined })).toEqual(expected);
    // Same version: unchanged behaviour, whatever else the entry says.
    expect(pluginCopyFor(ID, registered, { ...repo, locked: lockEntry('0.2.0', trees['0.1.0']) })).toEqual(expected);
  });

  it('uses the installed copy of another locked version, with the lock tree hash', () => {
    const registered = register('0.2.0');
    expect(pluginCopyFor(ID, registered, { root: join(root, 'r'), locked: lockEntry('0.1.0'), pluginsRoot })).toEqual({
      dir: join(pluginsRoot, ID, '0.1.0'),
      version: '0.1.0',
      treeHash: trees['0.1.0'],
      chosenBy: 'lock',
    });
  });

  it('refuses a locked version that is not installed with LOCKED_VERSION_NOT_INSTALLED and what to run where', () => {
    const registered = register('0.2.0');
    const repo = join(root, 'r');
    let error: unknown;
    try {
      pluginCopyFor(ID, registered, { root: repo, locked: lockEntry('0.3.0', trees['0.1.0']), pluginsRoot });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LangError);
    expect((error as LangError).code).toBe('LOCKED_VERSION_NOT_INSTALLED');
    expect((error as LangError).message).toBe(
      `${join(repo, '.travsr', 'plugins.lock')} locks ${ID} at 0.3.0, but lang.toml registers 0.2.0 and 0.3.0 is not installed (no ${join(pluginsRoot, ID, '0.3.0')}); ${ID} was not run rather than run at another version; ${lockedInstallAdvice(repo)}`,
    );
    // The advice installs exactly what the lock says, from the user's registry, and says the repository's own counts only if trusted.
    expect(lockedInstallAdvice(repo)).toBe(
      `to install what its lock names from your own registry (registry.url of ~/.travsr/config.toml, else the built-in one; the repository's own registry settings count only if you ran \`travsr trust\` there), run \`travsr lang install --frozen-lockfile --repo ${repo}\``,
    );
    expect(lockedInstallAdvice("/tmp/it's here")).toContain(`--repo '/tmp/it'\\''s here'`);
  });

  it('lays scoped ids out two levels deep, as the registry client installs them', () => {
    expect(installedPluginDir('/h/plugins', 'acme/lua', '1.0.0')).toBe(join('/h/plugins', 'acme', 'lua', '1.0.0'));
  });
});

describe('registeredPlugins honours the repository lock', () => {
  it('two repositories locking two versions each get their own; the grant is still lang.toml’s', async () => {
    register('0.2.0'); // the last install, in repository b, registered 0.2.0
    const a = repoLocking('a', { [ID]: lockEntry('0.1.0') });
    const b = repoLocking('b', { [ID]: lockEntry('0.2.0') });

    const inA = await catalogFor(a);
    expect(inA.problems).toEqual([]);
    const pa = only(inA.plugins);
    expect(pa.plugin.label).toBe(`${ID}@0.1.0`);
    expect(pa.plugin.dir).toBe(join(pluginsRoot, ID, '0.1.0'));
    expect(pa.treeHash).toBe(trees['0.1.0']);
    expect(pa).toMatchObject({ tier: 'elevated', allowUnsandboxed: true, networkAllow: ['plugins.example.org'], source: 'lang.toml' });

    const pb = only((await catalogFor(b)).plugins);
    expect(pb.plugin.label).toBe(`${ID}@0.2.0`);
    expect(pb.treeHash).toBe(trees['0.2.0']);
    expect(pb).toMatchObject({ tier: 'elevated', allowUnsandboxed: true, networkAllow: ['plugins.example.org'] });

    // The other way round: registering 0.1.0 (an install in a) does not move b.
    register('0.1.0');
    expect(only((await catalogFor(b)).plugins).plugin.label).toBe(`${ID}@0.2.0`);
    expect(only((await catalogFor(a)).plugins).plugin.label).toBe(`${ID}@0.1.0`);
  });

  it('a repository without a lock (or without an entry for the plugin) runs lang.toml’s registration', async () => {
    register('0.2.0');
    for (const repo of [repoLocking('none'), repoLocking('other', { 'lang-go': { ...lockEntry('0.1.0'), treeHash: trees['0.1.0']! } })]) {
      const p = only((await catalogFor(repo)).plugins);
      expect(p.plugin.label).toBe(`${ID}@0.2.0`);
      expect(p.treeHash).toBe(trees['0.2.0']);
    }
  });

  it('a locked version that is not installed leaves the plugin out with a coded problem, never running the registered one', async () => {
    register('0.2.0');
    const repo = repoLocking('a', { [ID]: lockEntry('0.3.0', trees['0.1.0']) });
    const r = await catalogFor(repo);
    expect(r.plugins).toEqual([]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatch(
      new RegExp(`^${ID}: \\[LOCKED_VERSION_NOT_INSTALLED\\] .*locks ${ID} at 0\\.3\\.0, but lang\\.toml registers 0\\.2\\.0`),
    );
    expect(r.problems[0]).toContain(lockedInstallAdvice(repo));
  });

  it('a locked version directory holding another version is refused', async () => {
    register('0.2.0');
    const dir = installedPluginDir(pluginsRoot, ID, '0.3.0');
    cpSync(installedPluginDir(pluginsRoot, ID, '0.2.0'), dir, { recursive: true });
    const r = await catalogFor(repoLocking('a', { [ID]: lockEntry('0.3.0', trees['0.2.0']) }));
    expect(r.plugins).toEqual([]);
    expect(r.problems[0]).toMatch(new RegExp(`\\[LOCKED_VERSION_NOT_INSTALLED\\] ${dir} holds ${ID}@0\\.2\\.0, not ${ID}@0\\.3\\.0`));
  });

  it('a lock entry for a plugin lang.toml does not register is reported', async () => {
    writeLangToml({ languages: {}, plugins: {} });
    const repo = repoLocking('a', { [ID]: lockEntry('0.1.0') });
    const r = await catalogFor(repo);
    expect(r.plugins).toEqual([]);
    expect(r.problems).toEqual([
      `${ID}: ${pluginsLockPath(repo)} locks ${ID} at 0.1.0, but lang.toml does not register it, so it does not run; ${lockedInstallAdvice(repo)}`,
    ]);
  });

  it("a plugin the lock records from a trusted repository's own registry runs there (not in lang.toml); untrusted, it does not", async () => {
    writeLangToml({ languages: {}, plugins: {} });
    const repo = repoLocking('a', { [ID]: { ...lockEntry('0.1.0'), registry: 'https://repo-registry.example' } });
    const text = '[registry]\nurl = "https://repo-registry.example"\n[sandbox]\ntier = "native-ipc"\n';
    writeFileSync(join(repo, '.travsr', 'config.toml'), text);
    const untrusted = await catalogFor(repo);
    expect(untrusted.plugins).toEqual([]);
    expect(untrusted.problems[0]).toContain('lang.toml does not register it');
    trustRepository(repo, configSha256(text));
    const trusted = await catalogFor(repo);
    expect(trusted.problems).toEqual([]);
    expect(only(trusted.plugins)).toMatchObject({ source: 'lock', tier: 'native-ipc', treeHash: trees['0.1.0'] });
    expect(only(trusted.plugins).plugin.label).toBe(`${ID}@0.1.0`);
  });

  it("a trusted repository's sandbox.tier widens lang.toml's grant for its own runs only; an untrusted one changes nothing", async () => {
    const entry = { ...register('0.2.0'), tier: 'standard' as const };
    writeLangToml({ languages: { lua: { plugin: ID, allowUnsandboxed: false } }, plugins: { [ID]: entry } });
    const repo = repoLocking('a');
    const text = '[sandbox]\ntier = "elevated"\n';
    writeFileSync(join(repo, '.travsr', 'config.toml'), text);
    expect(only((await catalogFor(repo)).plugins).tier).toBe('standard');
    trustRepository(repo, configSha256(text));
    expect(only((await catalogFor(repo)).plugins).tier).toBe('elevated');
    expect(only((await catalogFor(repoLocking('b'))).plugins).tier).toBe('standard');
  });

  it('a broken lock file stops the catalog with LOCK_INVALID instead of guessing a version', async () => {
    register('0.2.0');
    const repo = repoLocking('a');
    writeFileSync(pluginsLockPath(repo), `lockfileVersion = 1\n[plugins.${ID}]\nversion = 0.1\n`);
    await expect(catalogFor(repo)).rejects.toMatchObject({ code: 'LOCK_INVALID' });
  });

  it('without repoRoot, the lock of the git work tree holding the current directory counts', async () => {
    register('0.2.0');
    const repo = repoLocking('git-a', { [ID]: lockEntry('0.1.0') });
    execFileSync('git', ['init', '-q', repo]);
    mkdirSync(join(repo, 'src'));
    process.chdir(join(repo, 'src'));
    expect(only((await registeredPlugins([])).plugins).plugin.label).toBe(`${ID}@0.1.0`);
    process.chdir(root); // not a git work tree: no lock, lang.toml's version
    expect(only((await registeredPlugins([])).plugins).plugin.label).toBe(`${ID}@0.2.0`);
  });
});

describe('the launch-time check of a locked copy', () => {
  /** Starts the plugin as the indexer would; resolves with the directory the launcher was asked to run, or rejects. */
  async function launch(p: RegisteredPlugin): Promise<string> {
    let launched: string | undefined;
    const sup = new PluginSupervisor({
      plugin: p.plugin,
      corpus: 'test',
      grant: { tier: p.tier, allowUnsandboxed: p.allowUnsandboxed, networkAllow: p.networkAllow },
      ...(p.treeHash ? { expectedTreeHash: p.treeHash } : {}),
      onTrace: () => {},
      launch: (spec: LaunchSpec) => {
        launched = spec.pluginDir;
        return Promise.reject(new Error('the test stops here, before spawning'));
      },
    });
    try {
      await sup.start().catch((e: unknown) => {
        if (launched === undefined) throw e;
      });
      return launched!;
    } finally {
      await sup.stop();
    }
  }

  it('an intact locked copy passes the tree-hash check; one edited after install is refused before launch', async () => {
    register('0.2.0');
    const p = only((await catalogFor(repoLocking('a', { [ID]: lockEntry('0.1.0') }))).plugins);
    expect(await launch(p)).toBe(join(pluginsRoot, ID, '0.1.0'));

    appendFileSync(join(pluginsRoot, ID, '0.1.0', 'dist', 'main.js'), '// edited after install\n');
    await expect(launch(p)).rejects.toMatchObject({
      code: 'PLUGIN_TAMPERED',
      message: expect.stringMatching(/tiny-lua@0\.1\.0: plugin files in .*0\.1\.0 changed since they were installed/),
    });
  });

  it('the lock tree hash is the one checked, not lang.toml’s', async () => {
    register('0.2.0');
    // A lock whose tree hash does not describe the installed 0.1.0 (e.g. a lock from a different artifact).
    const p = only((await catalogFor(repoLocking('a', { [ID]: lockEntry('0.1.0', trees['0.2.0']) }))).plugins);
    expect(p.treeHash).toBe(trees['0.2.0']);
    await expect(launch(p)).rejects.toMatchObject({ code: 'PLUGIN_TAMPERED' });
  });
});
