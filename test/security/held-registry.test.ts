// Attacks that already held, kept from regressing: a malicious registry. The user runs the
// real `travsr lang install` against a registry served over HTTP on 127.0.0.1 by an attacker
// who can change bytes on the wire, replay an older signed snapshot to a repository whose lock
// names a newer version, or (holding the registry's key) plant a traversing, linking or bomb
// archive and re-sign everything. Each must be refused with nothing installed or written.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { publishArtifact, type SigningKey } from '@travsr/registry';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { header, paxPath, rawTar, TYPE, writeZeroBomb, type RawEntry } from '../../registry/test/tar-fixtures.js';
import { travsr } from '../helpers/run-cli.js';
import {
  packExampleLua,
  plantArtifact,
  signedExampleLuaRegistry,
  startHostileRegistry,
  type HostileRegistry,
} from './helpers/hostile-registry.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');
const SECRET = 'held-registry-planted-secret';

let work: string;
let key: SigningKey;
let pub: string;
/** Registry directory with 0.1.0 only, signed before 0.1.1 was published: the replay. */
let snapshot010: string;
/** Registry directory with 0.1.0 and 0.1.1. */
let current: string;
/** A directory of the user's an archive tries to write into. */
let victim: string;
/** A host secret an archive tries to hard-link into the plugin. */
let secretFile: string;
const servers: HostileRegistry[] = [];

interface User {
  home: string;
  repo: string;
}

async function user(name: string): Promise<User> {
  const home = join(work, name, 'home');
  const repo = join(work, name, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(repo, { recursive: true });
  await execa('git', ['init', '-q', repo]);
  return { home, repo };
}

/** `travsr lang …` as the user, trusting the registry key through their own environment. */
function lang(u: User, url: string, args: string[]) {
  return travsr(['lang', ...args], {
    cwd: u.repo,
    env: { TRAVSR_HOME: u.home, TRAVSR_REGISTRY_URL: url, TRAVSR_REGISTRY_TRUSTED_KEYS: pub },
  });
}

async function serve(dir: string): Promise<HostileRegistry> {
  const s = await startHostileRegistry(dir);
  servers.push(s);
  return s;
}

/** Every file under `dir` (recursively), for looking for a leaked secret. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

function expectNothingInstalled(u: User): void {
  // No version of the plugin on disk (an empty plugins/example-lua/ may stay behind).
  const dir = join(u.home, 'plugins', 'example-lua');
  if (existsSync(dir)) expect(readdirSync(dir)).toEqual([]);
  const langToml = join(u.home, 'lang.toml');
  if (existsSync(langToml)) expect(readFileSync(langToml, 'utf8')).not.toContain('example-lua');
  const lock = join(u.repo, '.travsr', 'plugins.lock');
  if (existsSync(lock)) expect(readFileSync(lock, 'utf8')).not.toContain('example-lua');
  expect(readdirSync(victim)).toEqual(['kept.txt']);
  for (const f of filesUnder(u.home)) expect(readFileSync(f, 'latin1'), f).not.toContain(SECRET);
}

beforeAll(async () => {
  const signed = await signedExampleLuaRegistry();
  work = signed.work;
  key = signed.key;
  pub = signed.publicKeyFile;
  snapshot010 = signed.dir;
  current = join(work, 'registry-current');
  cpSync(snapshot010, current, { recursive: true });
  await publishArtifact(current, (await packExampleLua(work, '0.1.1')).file, key);
  victim = join(work, 'victim');
  mkdirSync(victim);
  writeFileSync(join(victim, 'kept.txt'), 'kept\n');
  secretFile = join(work, 'id_rsa');
  writeFileSync(secretFile, `${SECRET}\n`);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('held: a man in the middle changes what the registry sends', () => {
  const artifact = 'artifacts/example-lua-0.1.1-any.tgz';
  const flip = (b: Buffer): Buffer => {
    const out = Buffer.from(b);
    out[out.length - 100] = (out[out.length - 100] ?? 0) ^ 0xff;
    return out;
  };

  it('a byte of the archive changed in transit: ARTIFACT_HASH_MISMATCH, nothing installed', async () => {
    const s = await serve(current);
    s.tamper(artifact, flip);
    const u = await user('mitm-artifact');
    const r = await lang(u, s.url, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[ARTIFACT_HASH_MISMATCH\]/);
    expect(s.requests).toContain(artifact);
    expectNothingInstalled(u);
  });

  it('the archive and its listed hash swapped together, SHA256SUMS rewritten: SIGNATURE_INVALID, nothing installed', async () => {
    const s = await serve(current);
    const tampered = flip(readFileSync(join(current, artifact)));
    const original = createHash('sha256')
      .update(readFileSync(join(current, artifact)))
      .digest('hex');
    const forged = createHash('sha256').update(tampered).digest('hex');
    s.tamper(artifact, () => tampered);
    s.tamper('SHA256SUMS', (b) => Buffer.from(b.toString('utf8').replace(original, forged)));
    const u = await user('mitm-sums');
    const r = await lang(u, s.url, ['install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[SIGNATURE_INVALID\]/);
    expect(s.requests).not.toContain(artifact);
    expectNothingInstalled(u);
  });
});

describe('held: the registry replays an older signed snapshot to a locked repository', () => {
  let s: HostileRegistry;
  let u: User;
  let lockBefore: string;
  beforeAll(async () => {
    s = await serve(current);
    u = await user('replay');
    const first = await lang(u, s.url, ['install', 'lua']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('installed example-lua@0.1.1');
    lockBefore = readFileSync(join(u.repo, '.travsr', 'plugins.lock'), 'utf8');
    s.serveFrom(snapshot010); // byte for byte what the registry signed before 0.1.1 existed
  });

  it('on the machine that installed 0.1.1: install and update refuse the replay, changing nothing', async () => {
    const langBefore = readFileSync(join(u.home, 'lang.toml'), 'utf8');
    for (const args of [['install', 'lua'], ['update']]) {
      const r = await lang(u, s.url, args);
      expect(r.code, `${args.join(' ')}: ${r.stdout}`).toBe(1);
      // Refused by the newest snapshot seen from this registry, or else by the lock.
      expect(r.stderr, args.join(' ')).toMatch(/^Error \[(SNAPSHOT|VERSION)_ROLLBACK\]/);
    }
    expect(readFileSync(join(u.repo, '.travsr', 'plugins.lock'), 'utf8')).toBe(lockBefore);
    expect(readFileSync(join(u.home, 'lang.toml'), 'utf8')).toBe(langBefore);
    expect(readdirSync(join(u.home, 'plugins', 'example-lua'))).toEqual(['0.1.1']);
  });

  it('on a machine that never saw the registry (a fresh clone of the locked repository): the lock refuses it (VERSION_ROLLBACK)', async () => {
    const fresh = { home: join(work, 'replay-fresh', 'home'), repo: u.repo };
    mkdirSync(fresh.home, { recursive: true });
    const r = await lang(fresh, s.url, ['install', 'lua']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toMatch(/^Error \[VERSION_ROLLBACK\]: .*0\.1\.0.*0\.1\.1/);
    expect(readFileSync(join(u.repo, '.travsr', 'plugins.lock'), 'utf8')).toBe(lockBefore);
    expect(existsSync(join(fresh.home, 'plugins', 'example-lua'))).toBe(false);
  });
});

// Each attack has its own registry, server and user: they run side by side (five CLI runs at
// once on two cores, hence the longer timeout).
describe.concurrent('held: a registry whose key the attacker holds serves a malicious archive', { timeout: 120_000 }, () => {
  let manifest: RawEntry;
  beforeAll(() => {
    manifest = { path: 'package/travsr-plugin.json', data: readFileSync(join(EXAMPLE_LUA, 'travsr-plugin.json')) };
  });

  /** A copy of the 0.1.0 registry with `tgz` planted as example-lua 0.1.0 and everything re-signed. */
  async function plantedRegistry(name: string, tgz: Buffer): Promise<HostileRegistry> {
    const dir = join(work, `registry-${name}`);
    cpSync(snapshot010, dir, { recursive: true });
    plantArtifact(dir, 'example-lua', '0.1.0', tgz, key);
    return serve(dir);
  }

  async function refused(name: string, tgz: Buffer, code: RegExp): Promise<void> {
    const s = await plantedRegistry(name, tgz);
    const u = await user(name);
    const r = await lang(u, s.url, ['install', 'lua']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toMatch(code);
    expect(s.requests).toContain('artifacts/example-lua-0.1.0-any.tgz');
    expectNothingInstalled(u);
  }

  const gz = (entries: (RawEntry | Buffer)[]): Buffer => gzipSync(rawTar(entries));

  it('a ../ entry climbing out of the plugin directory into the user’s files: ARCHIVE_PATH_ESCAPE', async () => {
    const climb = `package/${'../'.repeat(40)}${victim.slice(1)}/pwned.txt`;
    await refused('traversal', gz([manifest, paxPath(climb), header({ path: 'package/x' })]), /^Error \[ARCHIVE_PATH_ESCAPE\]/);
  });

  it('an absolute path entry: ARCHIVE_PATH_ESCAPE', async () => {
    await refused(
      'absolute',
      gz([manifest, paxPath(`${victim}/pwned.txt`), header({ path: 'package/x' })]),
      /^Error \[ARCHIVE_PATH_ESCAPE\]/,
    );
  });

  it('a symlink to the user’s directory and a file written through it: ARCHIVE_LINK_ESCAPE', async () => {
    const tgz = gz([
      manifest,
      { path: 'package/escape', type: TYPE.symlink, linkpath: victim },
      { path: 'package/escape/pwned.txt', data: 'pwned\n' },
    ]);
    await refused('symlink', tgz, /^Error \[ARCHIVE_LINK_ESCAPE\]/);
  });

  it('a hard link to a secret of the user (it would be copied into the plugin): ARCHIVE_LINK_ESCAPE', async () => {
    const tgz = gz([manifest, { path: 'package/key', type: TYPE.hardlink, linkpath: secretFile }]);
    await refused('hardlink', tgz, /^Error \[ARCHIVE_LINK_ESCAPE\]/);
  });

  it('a decompression bomb (300 MiB of zeros in a small archive): ARCHIVE_TOO_LARGE before writing it', async () => {
    const head = rawTar([manifest]).subarray(0, -1024); // the manifest, without the end-of-archive blocks
    const bomb = header({ path: 'package/zeros.bin', declaredSize: 300 * 1024 * 1024 });
    const file = join(work, 'bomb.tgz');
    await writeZeroBomb(file, Buffer.concat([head, bomb]), 300 * 1024 * 1024);
    const tgz = readFileSync(file);
    expect(tgz.length).toBeLessThan(2 * 1024 * 1024);
    await refused('bomb', tgz, /^Error \[ARCHIVE_TOO_LARGE\]/);
  });
});
