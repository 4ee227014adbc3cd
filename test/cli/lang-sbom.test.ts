// The real CLI end to end for what an install knows about a plugin's contents: the SBOM
// published with plugins/example-lua (packed and published into temporary registries served on
// 127.0.0.1), kept at install and shown by `lang info`, checked by `lang verify`; an SBOM altered
// after signing, and a licence outside `registry.allowedLicences`, refuse the install.
import { createHash } from 'node:crypto';
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
} from '@travsr/registry';
import { execa } from 'execa';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');

let work: string;
let keyFile: string;
let packed: PackResult;
let good: RegistryServer;
let altered: RegistryServer;

interface Sandbox {
  home: string;
  repo: string;
}

async function sandbox(name: string, url: string): Promise<Sandbox> {
  const s = { home: join(work, name, 'home'), repo: join(work, name, 'repo') };
  mkdirSync(s.home, { recursive: true });
  mkdirSync(s.repo, { recursive: true });
  await execa('git', ['init', '-q', s.repo]);
  for (const [k, v] of [
    ['registry.url', url],
    ['registry.trustedKeys', `${keyFile}.pub`],
  ] as const) {
    const r = await travsr(['config', 'set', k, v, '--global'], { cwd: s.repo, env: { TRAVSR_HOME: s.home } });
    expect(r.code, r.stderr).toBe(0);
  }
  return s;
}

function cli(s: Sandbox, args: string[]) {
  return travsr(args, { cwd: s.repo, env: { TRAVSR_HOME: s.home } });
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'travsr-lang-sbom-'));
  keyFile = join(work, 'keys', 'registry.key');
  const key = generateSigningKey();
  mkdirSync(join(work, 'keys'));
  await writeSigningKey(keyFile, key);
  packed = await packPlugin(EXAMPLE_LUA, join(work, 'out'));
  const registry = join(work, 'registry');
  await publishArtifact(registry, packed.file, key);
  good = await serveRegistry({ dir: registry });
  // The same signed registry, with one package added to the SBOM after signing.
  const copy = join(work, 'registry-altered');
  cpSync(registry, copy, { recursive: true });
  const sbomFile = join(copy, 'artifacts', 'example-lua-0.1.0-any.cdx.json');
  const bom = JSON.parse(readFileSync(sbomFile, 'utf8')) as { components: { name: string }[] };
  bom.components = bom.components.filter((c) => c.name !== 'msgpackr');
  writeFileSync(sbomFile, `${JSON.stringify(bom, null, 2)}\n`);
  altered = await serveRegistry({ dir: copy });
});

afterAll(async () => {
  await Promise.all([good, altered].filter(Boolean).map((s) => s.close()));
  rmSync(work, { recursive: true, force: true });
});

describe('the SBOM through install, lang info and lang verify', () => {
  let s: Sandbox;

  it('install keeps the SBOM the signed version document names, and the lock and lang.toml pin its hash', async () => {
    s = await sandbox('main', good.url);
    const r = await cli(s, ['lang', 'install', 'lua']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`sbom       ${packed.sbom.sha256}`);
    const kept = readFileSync(join(s.home, 'plugins', '.records', 'example-lua', '0.1.0.cdx.json'));
    expect(createHash('sha256').update(kept).digest('hex')).toBe(packed.sbom.sha256);
    expect(kept).toEqual(readFileSync(packed.sbom.file));
    const lock = parse(readFileSync(join(s.repo, '.travsr', 'plugins.lock'), 'utf8')) as {
      plugins: Record<string, { sbomSha256?: string }>;
    };
    expect(lock.plugins['example-lua']?.sbomSha256).toBe(packed.sbom.sha256);
    const reg = parse(readFileSync(join(s.home, 'lang.toml'), 'utf8')) as { plugins: Record<string, { sbom_sha256?: string }> };
    expect(reg.plugins['example-lua']?.sbom_sha256).toBe(packed.sbom.sha256);
  });

  it('lang info shows manifest, tier, constraints, the SBOM, the signer and the registry; --json the full documents', async () => {
    const text = await cli(s, ['lang', 'info', 'lua']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^example-lua 0\.1\.0 — installed$/m);
    expect(text.stdout).toMatch(/^ {2}tier +standard \(its constraints need standard\)$/m);
    expect(text.stdout).toMatch(/^ {2}constraints +no network; no shared memory; no host API/m);
    expect(text.stdout).toContain(`from         ${good.url}`);
    expect(text.stdout).toMatch(/^ {2}signed by +ed25519:[0-9a-f]{16} at \d{4}-/m);
    expect(text.stdout).toMatch(
      /^ {2}sbom +CycloneDX 1\.6, complete, \d+ packages, \d+ shipped files? \(esbuild [\d.]+\); checked against the hash recorded at install$/m,
    );
    expect(text.stdout).toMatch(/^ {4}web-tree-sitter \d+\.\d+\.\d+ +MIT$/m);

    const json = await cli(s, ['lang', 'info', 'example-lua', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const info = JSON.parse(json.stdout) as {
      state: string;
      source: string;
      signedBy: string;
      versionDocument: { artifacts: { sbom: { sha256: string } }[] };
      record: { registry: string; signedBy: string };
      sbom: { from: string; sha256: string; document: { bomFormat: string; components: { name: string }[] } };
      lock: { sbomSha256: string };
    };
    expect(info).toMatchObject({ state: 'installed', source: good.url, record: { registry: good.url } });
    expect(info.record.signedBy).toBe(info.signedBy);
    expect(info.versionDocument.artifacts[0]?.sbom.sha256).toBe(packed.sbom.sha256);
    expect(info.sbom).toMatchObject({ from: 'install record', sha256: packed.sbom.sha256, document: { bomFormat: 'CycloneDX' } });
    expect(info.sbom.document).toEqual(JSON.parse(readFileSync(packed.sbom.file, 'utf8')));
  });

  it('lang verify names a plugin whose kept SBOM was altered, and a reinstall puts it right', async () => {
    const file = join(s.home, 'plugins', '.records', 'example-lua', '0.1.0.cdx.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"MIT"', '"GPL-3.0-only"'));
    const r = await cli(s, ['lang', 'verify']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^SBOM CHANGED\s+example-lua@0\.1\.0/m);
    expect(r.stderr).toContain('the SBOM of example-lua@0.1.0');
    expect(r.stderr).toContain('it was altered');

    const again = await cli(s, ['lang', 'install', 'example-lua@0.1.0']);
    expect(again.code, again.stderr).toBe(0);
    expect((await cli(s, ['lang', 'verify'])).code).toBe(0);
  });

  it('install refuses an SBOM altered after signing, and installs nothing', async () => {
    const t = await sandbox('altered', altered.url);
    const r = await cli(t, ['lang', 'install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[ARTIFACT_SBOM_MISMATCH\]: the SBOM of example-lua@0\.1\.0 .* changed after signing/m);
    expect(existsSync(join(t.home, 'plugins', 'example-lua'))).toBe(false);
    expect(existsSync(join(t.repo, '.travsr', 'plugins.lock'))).toBe(false);
  });

  it('a licence outside registry.allowedLicences refuses the install, naming the package and its licence', async () => {
    const t = await sandbox('policy', good.url);
    const set = await cli(t, ['config', 'set', 'registry.allowedLicences', 'Apache-2.0,BSD-3-Clause,Unlicense', '--global']);
    expect(set.code, set.stderr).toBe(0);
    const r = await cli(t, ['lang', 'install', 'lua']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^Error \[LICENCE_NOT_ALLOWED\]: \S+@\S+ \(bundled in example-lua@0\.1\.0\) is licensed MIT, and registry\.allowedLicences \(user: .*config\.toml:\d+\) allows Apache-2\.0, BSD-3-Clause, Unlicense; nothing was installed/m,
    );
    expect(existsSync(join(t.home, 'plugins', 'example-lua'))).toBe(false);

    const bad = await cli(t, ['config', 'set', 'registry.allowedLicences', 'MIT,not a licence', '--global']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('item 2, "not a licence", is not an SPDX licence id');

    const ok = await cli(t, ['config', 'set', 'registry.allowedLicences', 'MIT,Apache-2.0,BSD-3-Clause,Unlicense', '--global']);
    expect(ok.code, ok.stderr).toBe(0);
    const installed = await cli(t, ['lang', 'install', 'lua']);
    expect(installed.code, installed.stderr).toBe(0);
  });
});
