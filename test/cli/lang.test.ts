// The real CLI end to end for `travsr lang`: plugins/example-lua (read only) is packed and
// published into temporary registries served on 127.0.0.1; installs go into a temporary
// TRAVSR_HOME and a temporary git repository with its .travsr/plugins.lock. Attacks and faults
// (tampered archive, wrong signature, unknown key, rollback, edited plugin) must leave nothing installed.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  generateSigningKey,
  packPlugin,
  publishArtifact,
  serveRegistry,
  writeSigningKey,
  type PackResult,
  type RegistryServer,
  type SigningKey,
} from '@travsr/registry';
import { execa } from 'execa';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');

let work: string;
let key: SigningKey;
let keyFile: string;
let registry: string;
let server: RegistryServer;
let v010: PackResult;
let v011: PackResult;
const servers: RegistryServer[] = [];

interface LockToml {
  lockfileVersion: number;
  plugins: Record<string, { version: string; constraint: string; registry: string; sha256: string; treeHash: string }>;
}
interface LangTomlDoc {
  languages?: Record<string, { plugin?: string }>;
  plugins?: Record<string, { version: string; dir: string; tree_hash?: string }>;
}
interface ListJson {
  registry: string | null;
  languages: { language: string; plugin: string; version: string; state: string; locked?: string; pinned: boolean; note?: string }[];
}

/** A fresh TRAVSR_HOME and git repository. */
async function sandbox(name: string): Promise<{ home: string; repo: string }> {
  const home = join(work, name, 'home');
  const repo = join(work, name, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(repo, { recursive: true });
  await execa('git', ['init', '-q', repo]);
  return { home, repo };
}

function lang(s: { home: string; repo: string }, args: string[], env: Record<string, string> = {}) {
  return travsr(['lang', ...args], { cwd: s.repo, env: { TRAVSR_HOME: s.home, ...env } });
}

/**
 * `registry.url` and the trusted key in the user's config (the sandbox's own TRAVSR_HOME), through the CLI:
 * a registry the user chose registers what it installs in lang.toml (a repository's own registry would not).
 */
async function useRegistry(s: { home: string; repo: string }, url: string, pub = `${keyFile}.pub`): Promise<void> {
  for (const [k, v] of [
    ['registry.url', url],
    ['registry.trustedKeys', pub],
  ] as const) {
    const r = await travsr(['config', 'set', k, v, '--global'], { cwd: s.repo, env: { TRAVSR_HOME: s.home } });
    expect(r.code, r.stderr).toBe(0);
  }
}

function lockOf(repo: string): LockToml | undefined {
  const file = join(repo, '.travsr', 'plugins.lock');
  return existsSync(file) ? (parse(readFileSync(file, 'utf8')) as unknown as LockToml) : undefined;
}

function langToml(home: string): LangTomlDoc {
  const file = join(home, 'lang.toml');
  return existsSync(file) ? parse(readFileSync(file, 'utf8')) : {};
}

async function serve(dir: string): Promise<string> {
  const s = await serveRegistry({ dir });
  servers.push(s);
  return s.url;
}

/** Nothing of example-lua anywhere: no files, no registration, no lock entry. */
function expectNothingInstalled(s: { home: string; repo: string }): void {
  expect(existsSync(join(s.home, 'plugins', 'example-lua'))).toBe(false);
  expect(langToml(s.home).plugins?.['example-lua']).toBeUndefined();
  expect(lockOf(s.repo)?.plugins['example-lua']).toBeUndefined();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-lang-cli-'));
  keyFile = join(work, 'keys', 'registry.key');
  key = generateSigningKey();
  mkdirSync(join(work, 'keys'));
  await writeSigningKey(keyFile, key);
  v010 = await packPlugin(EXAMPLE_LUA, join(work, 'out'));
  // 0.1.1: the same plugin with a new version in its manifest (a copy; plugins/ stays untouched).
  const copy = join(work, 'example-lua-0.1.1');
  cpSync(EXAMPLE_LUA, copy, { recursive: true, filter: (src) => !src.includes('node_modules') });
  const manifestFile = join(copy, 'travsr-plugin.json');
  writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace('"version": "0.1.0"', '"version": "0.1.1"'));
  v011 = await packPlugin(copy, join(work, 'out'));
  registry = join(work, 'registry');
  await publishArtifact(registry, v010.file, key);
  server = await serveRegistry({ dir: registry });
});

afterAll(async () => {
  await Promise.all([...(server ? [server] : []), ...servers].map((s) => s.close()));
  rmSync(work, { recursive: true, force: true });
});

describe('travsr lang against a registry on 127.0.0.1', () => {
  let s: { home: string; repo: string };

  it('install lua: resolves the language, installs, registers it as active and writes the lock with both hashes', async () => {
    s = await sandbox('main');
    await useRegistry(s, server.url);
    const r = await lang(s, ['install', 'lua']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`installed example-lua@0.1.0 from ${server.url}`);
    expect(existsSync(join(s.home, 'plugins', 'example-lua', '0.1.0', 'travsr-plugin.json'))).toBe(true);

    const lock = lockOf(s.repo);
    expect(lock?.lockfileVersion).toBe(1);
    expect(lock?.plugins['example-lua']).toEqual({
      version: '0.1.0',
      constraint: '^0.1.0',
      registry: server.url,
      sha256: v010.sha256,
      treeHash: v010.treeHash,
      sbomSha256: v010.sbom.sha256,
    });
    expect(langToml(s.home).plugins?.['example-lua']).toMatchObject({ version: '0.1.0', tree_hash: v010.treeHash });

    const list = await lang(s, ['list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const rows = (JSON.parse(list.stdout) as ListJson).languages.filter((row) => row.language === 'lua');
    expect(rows).toEqual([
      {
        language: 'lua',
        plugin: 'example-lua',
        version: '0.1.0',
        tier: 'standard',
        state: 'active',
        locked: '^0.1.0',
        pinned: false,
        phases: ['A'],
        tools: [],
      },
    ]);
    const text = await lang(s, ['list']);
    expect(text.stdout).toMatch(/^lua\s+example-lua\s+0\.1\.0\s+standard\s+active at Phase A\s+\^0\.1\.0\s+-$/m);
  });

  it('install --frozen-lockfile with an unchanged lock succeeds and changes nothing', async () => {
    const before = readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8');
    const r = await lang(s, ['install', '--frozen-lockfile']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('already installed example-lua@0.1.0');
    expect(readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8')).toBe(before);
  });

  it('a newer version in range: install keeps the locked one, update --frozen-lockfile fails clearly, update moves within the range', async () => {
    await publishArtifact(registry, v011.file, key);
    const lockFile = join(s.repo, '.travsr', 'plugins.lock');
    const before = readFileSync(lockFile, 'utf8');

    const keep = await lang(s, ['install', 'lua']);
    expect(keep.code, keep.stderr).toBe(0);
    expect(keep.stdout).toContain('already installed example-lua@0.1.0');

    const frozen = await lang(s, ['update', '--frozen-lockfile']);
    expect(frozen.code).toBe(1);
    expect(frozen.stderr).toMatch(
      /^Error \[LOCK_WOULD_CHANGE\]: .*plugins\.lock locks example-lua at 0\.1\.0 .* this would make it 0\.1\.1 .*nothing was changed/,
    );
    expect(readFileSync(lockFile, 'utf8')).toBe(before);
    expect(existsSync(join(s.home, 'plugins', 'example-lua', '0.1.1'))).toBe(false);

    const r = await lang(s, ['update']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('installed example-lua@0.1.1');
    expect(lockOf(s.repo)?.plugins['example-lua']).toMatchObject({ version: '0.1.1', constraint: '^0.1.0', sha256: v011.sha256 });
    expect(langToml(s.home).plugins?.['example-lua']?.version).toBe('0.1.1');

    // The update left 0.1.0 on disk (another repository may lock it); prune deletes what nothing here uses.
    const old = join(s.home, 'plugins', 'example-lua', '0.1.0');
    expect(existsSync(old)).toBe(true);
    const dry = await lang(s, ['prune', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would delete example-lua@0\.1\.0 \(\d+\.\d MiB\) /m);
    expect(existsSync(old)).toBe(true);
    const prune = await lang(s, ['prune', '--json']);
    expect((JSON.parse(prune.stdout) as { pruned: { id: string; version: string }[] }).pruned.map((p) => `${p.id}@${p.version}`)).toEqual([
      'example-lua@0.1.0',
    ]);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(join(s.home, 'plugins', 'example-lua', '0.1.1', 'travsr-plugin.json'))).toBe(true);
    expect((await lang(s, ['prune'])).stdout.trim()).toBe('nothing to prune');
  });

  it('pin fixes an exact version; update keeps it; update --upgrade unpins to ^latest', async () => {
    const r = await lang(s, ['pin', 'example-lua@0.1.0']);
    expect(r.code, r.stderr).toBe(0);
    expect(lockOf(s.repo)?.plugins['example-lua']).toMatchObject({ version: '0.1.0', constraint: '0.1.0', sha256: v010.sha256 });
    expect(langToml(s.home).plugins?.['example-lua']?.version).toBe('0.1.0');
    const list = JSON.parse((await lang(s, ['list', '--json'])).stdout) as ListJson;
    expect(list.languages.find((row) => row.language === 'lua')).toMatchObject({ version: '0.1.0', pinned: true, locked: '0.1.0' });

    const update = await lang(s, ['update']);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain('example-lua@0.1.0 is up to date (constraint 0.1.0)');

    const upgrade = await lang(s, ['update', '--upgrade']);
    expect(upgrade.code, upgrade.stderr).toBe(0);
    expect(lockOf(s.repo)?.plugins['example-lua']).toMatchObject({ version: '0.1.1', constraint: '^0.1.1' });
  });

  it('refuses a registry that offers only versions older than the lock (rollback), changing nothing', async () => {
    const old = join(work, 'registry-old');
    await publishArtifact(old, v010.file, key);
    const url = await serve(old);
    const lockBefore = readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8');
    const langBefore = readFileSync(join(s.home, 'lang.toml'), 'utf8');
    for (const args of [['install', 'lua'], ['update']]) {
      const r = await lang(s, args, { TRAVSR_REGISTRY_URL: url });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error \[VERSION_ROLLBACK\]: .*0\.1\.0.*0\.1\.1/);
    }
    expect(readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8')).toBe(lockBefore);
    expect(readFileSync(join(s.home, 'lang.toml'), 'utf8')).toBe(langBefore);
  });

  it('lang verify names a plugin whose files were edited after install, and index refuses to launch it', async () => {
    const ok = await lang(s, ['verify']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^ok\s+example-lua@0\.1\.1/m);

    writeFileSync(join(s.home, 'plugins', 'example-lua', '0.1.1', 'dist', 'main.js'), '// edited after install\n', { flag: 'a' });
    const r = await lang(s, ['verify']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^CHANGED\s+example-lua@0\.1\.1/m);
    expect(r.stderr).toMatch(
      /^Error \[PLUGIN_FILES_CHANGED\]: 1 plugin\(s\) changed since install: files of example-lua@0\.1\.1 \(Travsr will not launch them\)/,
    );

    writeFileSync(join(s.repo, 'main.lua'), 'local function greet() return 1 end\nreturn greet\n');
    const index = await travsr(['index', '--json'], { cwd: s.repo, env: { TRAVSR_HOME: s.home } });
    expect(index.stdout + index.stderr).toContain('changed since they were installed');
    expect(index.stdout).not.toMatch(/"nodes":\s*[1-9]/);

    // Installing again repairs it (the registry copy is verified and swapped in).
    const fix = await lang(s, ['install', 'lua']);
    expect(fix.code, fix.stderr).toBe(0);
    expect((await lang(s, ['verify'])).code).toBe(0);
  });

  it('remove: --frozen-lockfile refuses; then the registration, files and lock entry go', async () => {
    const frozen = await lang(s, ['remove', 'lua', '--frozen-lockfile']);
    expect(frozen.code).toBe(1);
    expect(frozen.stderr).toMatch(/^Error \[LOCK_WOULD_CHANGE\]/);
    expect(existsSync(join(s.home, 'plugins', 'example-lua'))).toBe(true);

    const r = await lang(s, ['remove', 'lua']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('removed example-lua@0.1.1 (served lua)');
    expectNothingInstalled(s);
    expect(langToml(s.home).languages?.lua).toBeUndefined();
  });
});

describe('travsr lang refuses attacks and faults with nothing installed', () => {
  /** A copy of the published registry (0.1.0 and 0.1.1) to damage. */
  function registryCopy(name: string): string {
    const dir = join(work, name);
    cpSync(registry, dir, { recursive: true });
    return dir;
  }

  it('a tampered archive (ARTIFACT_HASH_MISMATCH)', async () => {
    const dir = registryCopy('registry-tampered');
    const tgz = join(dir, 'artifacts', 'example-lua-0.1.1-any.tgz');
    const bytes = readFileSync(tgz);
    bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
    writeFileSync(tgz, bytes);
    const s = await sandbox('tampered');
    await useRegistry(s, await serve(dir));
    const r = await lang(s, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[ARTIFACT_HASH_MISMATCH\]/);
    expectNothingInstalled(s);
  });

  it('a wrong signature (SIGNATURE_INVALID)', async () => {
    const dir = registryCopy('registry-badsig');
    const sums = join(dir, 'SHA256SUMS');
    writeFileSync(
      sums,
      readFileSync(sums, 'utf8').replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0')),
    );
    const s = await sandbox('badsig');
    await useRegistry(s, await serve(dir));
    const r = await lang(s, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[SIGNATURE_INVALID\]/);
    expectNothingInstalled(s);
  });

  it('a registry signed by an unknown key (KEY_UNKNOWN)', async () => {
    const dir = join(work, 'registry-otherkey');
    await publishArtifact(dir, v010.file, generateSigningKey());
    const s = await sandbox('otherkey');
    await useRegistry(s, await serve(dir));
    const r = await lang(s, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[KEY_UNKNOWN\]: the registry is signed by key ed25519:[0-9a-f]{16}, which is not among your/);
    expectNothingInstalled(s);
  });

  it('a locked hash the registry no longer serves (LOCK_HASH_MISMATCH)', async () => {
    const s = await sandbox('lockhash');
    await useRegistry(s, server.url);
    mkdirSync(join(s.repo, '.travsr'), { recursive: true });
    const forged = `lockfileVersion = 1\n\n[plugins.example-lua]\nversion = "0.1.0"\nconstraint = "^0.1.0"\nregistry = "x"\nsha256 = "${'0'.repeat(64)}"\ntreeHash = "${v010.treeHash}"\n`;
    writeFileSync(join(s.repo, '.travsr', 'plugins.lock'), forged);
    const r = await lang(s, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[LOCK_HASH_MISMATCH\]/);
    expect(existsSync(join(s.home, 'plugins', 'example-lua'))).toBe(false);
    expect(readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8')).toBe(forged);
  });

  it('a broken lock file is an error naming file:line', async () => {
    const s = await sandbox('badlock');
    mkdirSync(join(s.repo, '.travsr'), { recursive: true });
    writeFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'lockfileVersion = 1\n[plugins.example-lua]\nversion = 0.1\n');
    const r = await lang(s, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[LOCK_INVALID\]: .*plugins\.lock:2: plugins\."example-lua" needs a string "version"/);
  });
});

describe('offline: the built-in registry and a mirror', () => {
  it('installs lua from the built-in registry with no registry configured', async () => {
    const s = await sandbox('builtin');
    const r = await lang(s, ['install', 'lua']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('installed example-lua@0.1.0 from the built-in registry');
    expect(lockOf(s.repo)?.plugins['example-lua']).toMatchObject({ version: '0.1.0', registry: 'builtin', sha256: v010.sha256 });
    const list = JSON.parse((await lang(s, ['list', '--json'])).stdout) as ListJson;
    expect(list.registry).toBe('builtin');
    expect(list.languages.filter((row) => row.state === 'available').map((row) => row.plugin)).toContain('lang-typescript');
  });

  it('lang mirror copies the registry verified; a fresh machine installs from the plain directory', async () => {
    const src = await sandbox('mirror-src');
    const mirror = join(work, 'mirror');
    const m = await lang(src, ['mirror', mirror]);
    expect(m.code, m.stderr).toBe(0);
    expect(m.stdout).toContain(`mirrored the built-in registry to ${mirror}`);
    expect(existsSync(join(mirror, 'SHA256SUMS.sig'))).toBe(true);
    const again = await lang(src, ['mirror', mirror]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error \[MIRROR_TARGET_NOT_EMPTY\]/);

    const s = await sandbox('mirror-use');
    await useRegistry(s, mirror, join(mirror, 'registry-key.pub'));
    const r = await lang(s, ['install', 'lua']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`installed example-lua@0.1.0 from ${mirror}`);
    expect(lockOf(s.repo)?.plugins['example-lua']).toMatchObject({ version: '0.1.0', registry: mirror, sha256: v010.sha256 });
  });
});

describe('per-repository locks at index time', () => {
  interface SummaryJson {
    plugins: { id: string; version: string; analyzed: number; failed: number }[];
  }
  interface StatusJson {
    plugins: { id: string; version: string }[];
    pluginProblems: string[];
  }
  const index = (s: { home: string; repo: string }) => travsr(['index', '--json'], { cwd: s.repo, env: { TRAVSR_HOME: s.home } });
  /** The example-lua run of an index summary. */
  function luaRun(r: { code: number | undefined; stdout: string; stderr: string }) {
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as SummaryJson).plugins.find((p) => p.id === 'example-lua');
  }
  /** A change to main.lua, so that the next index analyzes it again. */
  const edit = (s: { repo: string }, n: number) =>
    writeFileSync(join(s.repo, 'main.lua'), `local function greet() return ${n} end\nreturn greet\n`);

  /**
   * example-lua 0.2.0 that runs: its bundle introduces itself with the manifest's version, so
   * the bundled copy of the manifest changes too (the 0.1.1 above is only ever refused before launch).
   */
  async function runnable020(): Promise<PackResult> {
    const copy = join(work, 'example-lua-0.2.0');
    cpSync(EXAMPLE_LUA, copy, { recursive: true, filter: (src) => !src.includes('node_modules') });
    for (const [file, from, to] of [
      ['travsr-plugin.json', '"version": "0.1.0"', '"version": "0.2.0"'],
      ['dist/main.js', 'id:"example-lua",version:"0.1.0",', 'id:"example-lua",version:"0.2.0",'],
    ] as const) {
      const text = readFileSync(join(copy, file), 'utf8');
      expect(text, `${file} of example-lua changed shape: update this test`).toContain(from);
      writeFileSync(join(copy, file), text.replace(from, to));
    }
    return packPlugin(copy, join(work, 'out-0.2.0'));
  }

  it('two repositories locking two versions, both installed: each indexes with its own, whatever lang.toml registers last', async () => {
    const dir = join(work, 'registry-two-versions');
    await publishArtifact(dir, v010.file, key);
    await publishArtifact(dir, (await runnable020()).file, key);
    const url = await serve(dir);
    const a = await sandbox('lock-a');
    const b = { home: a.home, repo: (await sandbox('lock-b')).repo };
    // One user (one TRAVSR_HOME) with two repositories: the registry is configured once, for both.
    await useRegistry(a, url);
    for (const s of [a, b]) writeFileSync(join(s.repo, 'main.lua'), 'local function greet() return 1 end\nreturn greet\n');

    const inA = await lang(a, ['install', 'example-lua@0.1.0']);
    expect(inA.code, inA.stderr).toBe(0);
    const inB = await lang(b, ['install', 'lua']);
    expect(inB.code, inB.stderr).toBe(0);
    expect(lockOf(a.repo)?.plugins['example-lua']?.version).toBe('0.1.0');
    expect(lockOf(b.repo)?.plugins['example-lua']?.version).toBe('0.2.0');
    // The last install registered 0.2.0 for everyone; installing it left 0.1.0 on disk for a.
    expect(langToml(a.home).plugins?.['example-lua']?.version).toBe('0.2.0');
    for (const v of ['0.1.0', '0.2.0']) expect(existsSync(join(a.home, 'plugins', 'example-lua', v, 'travsr-plugin.json'))).toBe(true);

    expect(luaRun(await index(a))).toMatchObject({ version: '0.1.0', analyzed: 1 });
    expect(luaRun(await index(b))).toMatchObject({ version: '0.2.0', analyzed: 1 });
    const status = await travsr(['status', '--json'], { cwd: a.repo, env: { TRAVSR_HOME: a.home } });
    expect(status.code, status.stderr).toBe(0);
    expect((JSON.parse(status.stdout) as StatusJson).plugins.find((p) => p.id === 'example-lua')?.version).toBe('0.1.0');
    // lang list in a shows the version a runs, and what lang.toml registers.
    const listA = JSON.parse((await lang(a, ['list', '--json'])).stdout) as ListJson;
    expect(listA.languages.find((l) => l.language === 'lua' && l.state === 'active')).toMatchObject({
      version: '0.1.0',
      note: 'lang.toml registers 0.2.0',
    });

    // a's locked copy edited after install: refused at launch like any registered plugin; b is unaffected.
    const locked = join(a.home, 'plugins', 'example-lua', '0.1.0');
    writeFileSync(join(locked, 'dist', 'main.js'), '// edited after install\n', { flag: 'a' });
    edit(a, 2);
    const edited = await index(a);
    expect(edited.stdout + edited.stderr).toMatch(/example-lua@0\.1\.0: plugin files in .*0\.1\.0 changed since they were installed/);
    expect(luaRun(edited)).toMatchObject({ version: '0.1.0', analyzed: 0, failed: 1 });
    // lang verify in a checks the version a's lock runs too.
    const verify = await lang(a, ['verify']);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/^CHANGED\s+example-lua@0\.1\.0 /m);
    expect(verify.stdout).toMatch(/^ok\s+example-lua@0\.2\.0 /m);
    edit(b, 2);
    expect(luaRun(await index(b))).toMatchObject({ version: '0.2.0', analyzed: 1 });

    // a's locked version gone: a coded error saying what to run, never 0.2.0 instead.
    rmSync(locked, { recursive: true, force: true });
    const missing = await index(a);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('[LOCKED_VERSION_NOT_INSTALLED]');
    expect(missing.stderr).toContain(`locks example-lua at 0.1.0, but lang.toml registers 0.2.0 and 0.1.0 is not installed`);
    // The advice installs exactly what the lock names, from the user's own registry (not a repository's, unless trusted).
    expect(missing.stderr).toContain(`run \`travsr lang install --frozen-lockfile --repo ${a.repo}\``);
    // Said once, in the refusal, without the misleading advice to run `travsr init`.
    expect(missing.stderr).toMatch(/\[NO_PLUGINS\]: no language plugin can run \(example-lua: \[LOCKED_VERSION_NOT_INSTALLED\]/);
    expect(missing.stderr.split('[LOCKED_VERSION_NOT_INSTALLED]').length - 1).toBe(1);
    expect(missing.stderr).not.toContain('travsr init');
    expect(missing.stdout).not.toContain('0.2.0');

    // Which is what repairs it; b keeps its version.
    const repair = await lang(a, ['install', '--frozen-lockfile']);
    expect(repair.code, repair.stderr).toBe(0);
    expect(luaRun(await index(a))).toMatchObject({ version: '0.1.0', analyzed: 1 });
    edit(b, 3);
    expect(luaRun(await index(b))).toMatchObject({ version: '0.2.0', analyzed: 1 });

    // Pruning in b spares 0.1.0, which lang.toml no longer registers: a's lock, which this installation wrote, names it.
    expect((await lang(b, ['install'])).code).toBe(0);
    expect(langToml(a.home).plugins?.['example-lua']?.version).toBe('0.2.0');
    const prune = await lang(b, ['prune', '--json']);
    expect(prune.code, prune.stderr).toBe(0);
    const pruned = JSON.parse(prune.stdout) as { pruned: unknown[]; kept: { id: string; version: string; locks: string[] }[] };
    expect(pruned.pruned).toEqual([]);
    expect(pruned.kept).toEqual([
      expect.objectContaining({ id: 'example-lua', version: '0.1.0', locks: [join(a.repo, '.travsr', 'plugins.lock')] }),
    ]);
    // Removing it in b deletes b's version and keeps a's, which still indexes.
    const remove = await lang(b, ['remove', 'lua']);
    expect(remove.code, remove.stderr).toBe(0);
    expect(remove.stdout).toMatch(/^ {2}kept example-lua@0\.1\.0 .*: locked by .*lock-a.*plugins\.lock$/m);
    expect(existsSync(join(a.home, 'plugins', 'example-lua', '0.2.0'))).toBe(false);
    expect(existsSync(join(a.home, 'plugins', 'example-lua', '0.1.0', 'travsr-plugin.json'))).toBe(true);
    // lang.toml registers nothing for lua any more: a installs again, from the files kept.
    const again = await lang(a, ['install', '--frozen-lockfile']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already installed example-lua@0.1.0');
    edit(a, 3);
    expect(luaRun(await index(a))).toMatchObject({ version: '0.1.0', analyzed: 1 });
  }, 240_000);
});
