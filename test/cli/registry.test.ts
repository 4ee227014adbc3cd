// The real CLI end to end: create a key, pack plugins/example-lua (read only), publish it into a
// temporary registry, verify it, tamper with it, rotate the key, and serve it over HTTP.
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');
const BIN = fileURLToPath(new URL('../../host/bin/run.js', import.meta.url));
const ARTIFACT = 'artifacts/example-lua-0.1.0-any.tgz';

let work: string;
let registry: string;
let keyFile: string;
let packed: { file: string; sha256: string; size: number; treeHash: string; sbom: { sha256: string } };

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'travsr-registry-cli-'));
  registry = join(work, 'registry');
  keyFile = join(work, 'keys', 'registry.key');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('travsr registry', () => {
  it('keygen writes a private key (0600) and its .pub, and never overwrites them', async () => {
    const r = await travsr(['registry', 'keygen', keyFile]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const pub = JSON.parse(readFileSync(`${keyFile}.pub`, 'utf8')) as { keyId: string; publicKey: string };
    expect(pub.keyId).toMatch(/^ed25519:[0-9a-f]{16}$/);
    expect(r.stdout).toContain(`created registry key ${pub.keyId}`);
    expect(r.stdout).toContain(`${keyFile}.pub`);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const again = await travsr(['registry', 'keygen', keyFile]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error \[KEY_FILE_EXISTS\]: .*already exists; keys are never overwritten/);
  });

  it('plugin pack writes a deterministic artifact and prints its file, sha256, size and tree hash', async () => {
    const r = await travsr(['plugin', 'pack', EXAMPLE_LUA, '--out', join(work, 'out'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    packed = JSON.parse(r.stdout);
    expect(packed.file).toBe(join(work, 'out', 'example-lua-0.1.0-any.tgz'));
    const bytes = readFileSync(packed.file);
    expect(packed.sha256).toBe(sha256(bytes));
    expect(packed.size).toBe(bytes.length);
    expect(packed.treeHash).toMatch(/^sha256:[0-9a-f]{64}$/);

    const text = await travsr(['plugin', 'pack', EXAMPLE_LUA, '--out', join(work, 'out2')]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`packed example-lua@0.1.0 (any): ${join(work, 'out2', 'example-lua-0.1.0-any.tgz')}`);
    expect(text.stdout).toMatch(new RegExp(`sha256\\s+${packed.sha256}`));
    expect(text.stdout).toMatch(new RegExp(`tree hash\\s+${packed.treeHash}`));
  });

  it('plugin pack refuses a directory that is not a plugin', async () => {
    const r = await travsr(['plugin', 'pack', work, '--out', join(work, 'out3')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[PACK_NOT_A_PLUGIN\]: .* has no travsr-plugin.json/);
  });

  it('publish adds the artifact, and publishing the same bytes again changes nothing', async () => {
    const r = await travsr(['registry', 'publish', packed.file, '--registry', registry, '--key', keyFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^published example-lua@0\.1\.0 \(any\) to .*, signed with ed25519:[0-9a-f]{16}$/m);
    expect(r.stdout).toContain(ARTIFACT);
    expect(readFileSync(join(registry, ARTIFACT)).equals(readFileSync(packed.file))).toBe(true);
    expect(readFileSync(join(registry, 'SHA256SUMS'), 'utf8')).toContain(`${packed.sha256}  ${ARTIFACT}`);
    // The SBOM pack wrote beside the artifact goes with it, its hash signed.
    expect(r.stdout).toContain(`sbom       artifacts/example-lua-0.1.0-any.cdx.json (CycloneDX 1.6, `);
    expect(readFileSync(join(registry, 'SHA256SUMS'), 'utf8')).toContain(`${packed.sbom.sha256}  artifacts/example-lua-0.1.0-any.cdx.json`);

    const again = await travsr(['registry', 'publish', packed.file, '--registry', registry, '--key', keyFile, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: 'example-lua', version: '0.1.0', changed: false });
  });

  it('verify accepts the registry under its key and refuses it without a trusted key', async () => {
    const r = await travsr(['registry', 'verify', '--registry', registry, '--trusted-key', `${keyFile}.pub`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok: .* — 4 files match SHA256SUMS, signed by ed25519:/);
    expect(r.stdout).toMatch(/example-lua\s+0\.1\.0 \(latest 0\.1\.0\)/);

    const other = join(work, 'keys', 'other.key');
    await travsr(['registry', 'keygen', other]);
    const untrusted = await travsr(['registry', 'verify', '--registry', registry, '--trusted-key', `${other}.pub`]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/^Error \[KEY_UNKNOWN\]: the registry is signed by key ed25519:[0-9a-f]{16}, which is not among/);

    const missing = await travsr(['registry', 'verify', '--registry', join(work, 'nowhere'), '--trusted-key', `${keyFile}.pub`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^Error \[REGISTRY_EMPTY\]: .* is not a registry \(no SHA256SUMS\); check the path/);
  });

  it('verify fails with a clear error when one byte of the artifact changed, and publish refuses to re-sign it', async () => {
    const tampered = join(work, 'tampered');
    cpSync(registry, tampered, { recursive: true });
    const file = join(tampered, ARTIFACT);
    const bytes = readFileSync(file);
    bytes[1000] = (bytes[1000] ?? 0) ^ 0x01;
    writeFileSync(file, bytes);

    const r = await travsr(['registry', 'verify', '--registry', tampered, '--trusted-key', `${keyFile}.pub`, '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Error [REGISTRY_TAMPERED]:');
    expect(r.stderr).toContain(`${ARTIFACT} has SHA-256 ${sha256(bytes)}, not the signed ${packed.sha256}`);
    expect(r.stderr).toMatch(/restore the file from a backup/);

    const republish = await travsr(['registry', 'publish', packed.file, '--registry', tampered, '--key', keyFile]);
    expect(republish.code).toBe(1);
    expect(republish.stderr).toMatch(/^Error \[REGISTRY_TAMPERED\]/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('sign moves the registry to a new key when the old one is trusted (key rotation)', async () => {
    const rotated = join(work, 'rotated');
    cpSync(registry, rotated, { recursive: true });
    const next = join(work, 'keys', 'next.key');
    await travsr(['registry', 'keygen', next]);
    const nextId = (JSON.parse(readFileSync(`${next}.pub`, 'utf8')) as { keyId: string }).keyId;

    const refused = await travsr(['registry', 'sign', '--registry', rotated, '--key', next]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error \[KEY_UNKNOWN\]: .* is signed by a key other than/);

    const r = await travsr(['registry', 'sign', '--registry', rotated, '--key', next, '--trusted-key', `${keyFile}.pub`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^signed .* with ${nextId} at \\d{4}-`));
    const ok = await travsr(['registry', 'verify', '--registry', rotated, '--trusted-key', `${next}.pub`, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({
      ok: true,
      signedBy: { keyId: nextId },
      plugins: [{ id: 'example-lua', latest: '0.1.0' }],
    });
  });

  it('serve --port 0 prints its URL and serves SHA256SUMS and byte ranges of the artifact until SIGTERM', async () => {
    const child = execa(process.execPath, [BIN, 'registry', 'serve', registry, '--port', '0'], {
      env: { TRAVSR_HOME: process.env.TRAVSR_HOME! },
      reject: false,
      stdin: 'ignore',
      timeout: 60_000,
    });
    try {
      const url = await new Promise<string>((done, fail) => {
        let seen = '';
        child.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const m = /serving .* at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(seen);
          if (m?.[1]) done(m[1]);
        });
        void child.then(() => fail(new Error(`travsr registry serve exited early:\n${seen}`)));
      });
      expect(url).not.toBe('http://127.0.0.1:0/');

      const sums = await fetch(new URL('SHA256SUMS', url));
      expect(sums.status).toBe(200);
      expect(sums.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await sums.text()).toBe(readFileSync(join(registry, 'SHA256SUMS'), 'utf8'));

      const whole = readFileSync(join(registry, ARTIFACT));
      const part = await fetch(new URL(ARTIFACT, url), { headers: { Range: 'bytes=100-199' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${whole.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);

      expect((await fetch(new URL('registry.key', url))).status).toBe(404);
    } finally {
      child.kill('SIGTERM');
    }
    const done = await child;
    expect(done.exitCode).toBe(0);
    expect(done.stderr).toMatch(/ GET \/SHA256SUMS 200 \d+ /);
    expect(done.stderr).toMatch(new RegExp(` GET /${ARTIFACT} 206 100 \\(bytes=100-199\\)`));
  });

  it('serve refuses a directory that does not exist', async () => {
    const r = await travsr(['registry', 'serve', join(work, 'nowhere'), '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^Error \[REGISTRY_NOT_A_DIRECTORY\]: cannot serve .*nowhere: it is not a directory/);
  });
});
