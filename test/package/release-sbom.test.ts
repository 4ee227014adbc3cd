// The CLI release's SBOM (release/travsr-<v>.cdx.json, written by host/scripts/pack-release.mjs
// beside the tarball `npm run build` packs), compared with what it describes: the bundler's own
// record of dist/bundle/, the packages inside the tarball, and the host's runtime dependencies.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ALLOWED_LICENCES, licenceAllowed, parseSbom, sbomPackages, type CycloneDxComponent } from '@travsr/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
const host = readJson<{ version: string; dependencies: Record<string, string> }>(join(repoRoot, 'host', 'package.json'));
const tarball = join(repoRoot, 'release', `travsr-${host.version}.tgz`);
const sbomFile = join(repoRoot, 'release', `travsr-${host.version}.cdx.json`);

let unpacked: string;
beforeAll(() => {
  unpacked = mkdtempSync(join(tmpdir(), 'travsr-release-sbom-'));
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked]);
});
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

const property = (c: CycloneDxComponent | undefined, name: string): string[] =>
  (c?.properties ?? []).filter((p) => p.name === name).map((p) => p.value);

/** Every package directory under a node_modules tree (scoped ones and nested ones included). */
function packagesIn(nodeModules: string): { name: string; version: string }[] {
  const out: { name: string; version: string }[] = [];
  const visit = (dir: string): void => {
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry);
      if (!statSync(path).isDirectory() || entry.startsWith('.')) continue;
      if (entry.startsWith('@')) {
        visit(path);
        continue;
      }
      const manifest = readJson<{ name: string; version: string }>(join(path, 'package.json'));
      out.push({ name: manifest.name, version: manifest.version });
      visit(join(path, 'node_modules'));
    }
  };
  visit(nodeModules);
  return out;
}

describe('the SBOM of the CLI release', () => {
  it('describes travsr at its version as CycloneDX, with every package a licence the default policy allows', () => {
    const bom = parseSbom(readFileSync(sbomFile), sbomFile, { name: 'travsr', version: host.version });
    expect(bom.specVersion).toBe('1.6');
    expect(bom.compositions[0]?.aggregate).toBe('complete');
    for (const p of sbomPackages(bom)) expect(licenceAllowed(p.licence, DEFAULT_ALLOWED_LICENCES), `${p.name} ${p.licence}`).toBe(true);
  });

  it('names every package the bundler merged into dist/bundle/, with the bytes its record gives', () => {
    const bom = parseSbom(readFileSync(sbomFile), sbomFile);
    const record = readJson<{ bundles: { output: string; inputs: Record<string, number> }[] }>(
      join(repoRoot, 'host', 'dist', 'bundle', 'build-record.json'),
    );
    const bytes = new Map<string, number>();
    for (const b of record.bundles)
      for (const [input, n] of Object.entries(b.inputs)) {
        // The package after the last node_modules/ (a nested copy belongs to the inner package).
        const at = input.lastIndexOf('node_modules/');
        const name = at < 0 ? undefined : /^((?:@[^/]+\/)?[^/]+)\//.exec(input.slice(at + 'node_modules/'.length))?.[1];
        if (name) bytes.set(name, (bytes.get(name) ?? 0) + n);
      }
    expect(bytes.has('@oclif/core')).toBe(true);
    for (const [name, n] of bytes) {
      const components = bom.components.filter((c) => c.name === name && property(c, 'travsr:bundled-into').length > 0);
      expect(components.length, name).toBeGreaterThan(0);
      expect(
        components.reduce((sum, c) => sum + Number(property(c, 'travsr:bundled-bytes')[0]), 0),
        name,
      ).toBe(n);
    }
  });

  it('names every package inside the tarball at its version, and every runtime dependency at the version the host pins', () => {
    const bom = parseSbom(readFileSync(sbomFile), sbomFile);
    const shipped = packagesIn(join(unpacked, 'package', 'node_modules'));
    expect(shipped.map((p) => p.name)).toContain('@travsr/registry');
    // One component per name and version: each bom-ref once.
    const refs = bom.components.map((c) => c['bom-ref']);
    expect(new Set(refs).size).toBe(refs.length);
    for (const p of shipped) {
      const c = bom.components.find((x) => x.name === p.name && x.version === p.version);
      expect(c, `${p.name}@${p.version}`).toBeDefined();
      expect(property(c, 'travsr:shipped-as'), p.name).toContain('packaged');
    }
    for (const [name, version] of Object.entries(host.dependencies)) {
      const c = bom.components.find((x) => x.name === name);
      expect(c?.version, name).toBe(version);
      expect(property(c, 'travsr:shipped-as').length, name).toBeGreaterThan(0);
    }
    expect(
      property(
        bom.components.find((c) => c.name === 'better-sqlite3'),
        'travsr:shipped-as',
      ),
    ).toEqual(['npm-dependency']);
  });
});
