// What an install keeps beside the installed plugins: where it came from, and its SBOM, checked when read.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  installRecordPaths,
  readInstallRecord,
  readInstalledSbom,
  removeInstallRecords,
  writeInstallRecord,
  type InstallRecord,
} from '../../src/catalog/install-records.js';
import { langErrorOf } from './lang-error.js';

const root = () => mkdtempSync(join(tmpdir(), 'travsr-records-'));
const SBOM = Buffer.from(
  JSON.stringify({
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    metadata: { component: { name: 'acme/lua', version: '1.2.0' } },
    components: [],
  }),
);
const SHA = createHash('sha256').update(SBOM).digest('hex');
const RECORD: InstallRecord = {
  formatVersion: 1,
  id: 'acme/lua',
  version: '1.2.0',
  registry: 'https://plugins.example.org/',
  installedAt: '2026-12-05T10:00:00.000Z',
  signedBy: 'ed25519:0123456789abcdef',
  signed: '2026-12-01T00:00:00.000Z',
  platform: 'any',
  sha256: 'a'.repeat(64),
  treeHash: `sha256:${'b'.repeat(64)}`,
  sbom: { sha256: SHA, specVersion: '1.6', components: 0 },
};

describe('install records', () => {
  it('keeps the record and the SBOM under .records, out of the plugin directory, and reads them back', () => {
    const r = root();
    writeInstallRecord(r, RECORD, SBOM);
    expect(installRecordPaths(r, 'acme/lua', '1.2.0')).toEqual({
      record: join(r, '.records', 'acme', 'lua', '1.2.0.json'),
      sbom: join(r, '.records', 'acme', 'lua', '1.2.0.cdx.json'),
    });
    expect(readInstallRecord(r, 'acme/lua', '1.2.0')).toEqual(RECORD);
    expect(readInstalledSbom(r, 'acme/lua', '1.2.0', SHA).bytes).toEqual(SBOM);
    expect(readInstallRecord(r, 'acme/lua', '9.9.9')).toBeUndefined();
  });

  it('refuses an SBOM that was altered, removed or describes another plugin', () => {
    const r = root();
    writeInstallRecord(r, RECORD, SBOM);
    const { sbom } = installRecordPaths(r, 'acme/lua', '1.2.0');
    writeFileSync(sbom, Buffer.concat([SBOM, Buffer.from(' ')]));
    const altered = langErrorOf(() => readInstalledSbom(r, 'acme/lua', '1.2.0', SHA));
    expect(altered.code).toBe('INSTALL_RECORD_INVALID');
    expect(altered.message).toContain(`but ${SHA} was recorded when it was installed: it was altered`);
    writeInstallRecord(r, RECORD, undefined);
    expect(langErrorOf(() => readInstalledSbom(r, 'acme/lua', '1.2.0', SHA)).message).toContain('cannot be read (ENOENT)');
    const other = Buffer.from(SBOM.toString().replace('acme/lua', 'other'));
    writeFileSync(sbom, other);
    const sha = createHash('sha256').update(other).digest('hex');
    expect(langErrorOf(() => readInstalledSbom(r, 'acme/lua', '1.2.0', sha)).message).toContain(
      'describes other@1.2.0, not acme/lua@1.2.0',
    );
  });

  it('names a record that is not one, and removes the records of a version or of a whole plugin', () => {
    const r = root();
    const { record } = installRecordPaths(r, 'acme/lua', '1.2.0');
    mkdirSync(join(record, '..'), { recursive: true });
    writeFileSync(record, '{"formatVersion": 1, "id": "other"}');
    expect(langErrorOf(() => readInstallRecord(r, 'acme/lua', '1.2.0')).message).toMatch(/is not the install record of acme\/lua@1\.2\.0/);
    writeInstallRecord(r, RECORD, SBOM);
    writeInstallRecord(r, { ...RECORD, version: '1.3.0' }, SBOM);
    removeInstallRecords(r, 'acme/lua', '1.2.0');
    expect(readdirSync(join(r, '.records', 'acme', 'lua')).sort()).toEqual(['1.3.0.cdx.json', '1.3.0.json']);
    removeInstallRecords(r, 'acme/lua');
    expect(readdirSync(join(r, '.records', 'acme'))).toEqual([]);
  });
});
