import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ALLOWED_LICENCES, packPlugin, sbomPackages, type CycloneDxBom } from '@travsr/registry';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLicences, licencePolicyOf } from '../../host/src/catalog/licence-check.js';
import { builtinRegistrySource, registryClient } from '../../host/src/catalog/registry-source.js';

// The first-party plugins as `npm run build` left them: each dist/ holds the build record
// buildPlugin wrote from esbuild's metafile. Their SBOMs must say what that record says.
const REPO = resolve(fileURLToPath(import.meta.url), '../../..');
const out = mkdtempSync(join(tmpdir(), 'travsr-sbom-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;
interface Record {
  bundles: { output: string; inputs: { [input: string]: number } }[];
  assets: { file: string; source: string }[];
}

async function packed(plugin: string): Promise<{ bom: CycloneDxBom; record: Record; dir: string }> {
  const dir = join(REPO, 'plugins', plugin);
  const result = await packPlugin(dir, out);
  expect(result.sbom.aggregate).toBe('complete');
  return { bom: readJson<CycloneDxBom>(result.sbom.file), record: readJson<Record>(join(dir, 'dist', 'build-record.json')), dir };
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('the SBOMs of the first-party plugins', () => {
  it('lang-typescript lists typescript at the version the bundler took, as bundled into dist/analysis.cjs, with its lib files', async () => {
    const { bom, record } = await packed('lang-typescript');
    const installed = readJson<{ version: string }>(join(REPO, 'node_modules', 'typescript', 'package.json')).version;
    // The bundler's record: the compiler went into analysis.cjs, not into main.js.
    const analysis = record.bundles.find((b) => b.output === 'dist/analysis.cjs');
    const main = record.bundles.find((b) => b.output === 'dist/main.js');
    expect(Object.keys(analysis?.inputs ?? {}).some((i) => i.endsWith('node_modules/typescript/lib/typescript.js'))).toBe(true);
    expect(Object.keys(main?.inputs ?? {}).some((i) => i.includes('node_modules/typescript/'))).toBe(false);

    const ts = bom.components.find((c) => c.name === 'typescript');
    expect(ts).toMatchObject({
      version: installed,
      purl: `pkg:npm/typescript@${installed}`,
      licenses: [{ license: { id: 'Apache-2.0' } }],
    });
    expect(ts?.properties).toContainEqual({ name: 'travsr:bundled-into', value: 'dist/analysis.cjs' });
    expect(ts?.hashes?.[0]?.alg).toBe('SHA-512');
    const libs = record.assets.filter((a) => /\/lib(\..+)?\.d\.ts$/.test(a.file));
    expect(libs.length).toBeGreaterThan(50);
    expect(ts?.components?.map((f) => f.name).sort()).toEqual(libs.map((a) => a.file.replace('dist/', '')).sort());
    // Every package the record took bytes from is named, and nothing else.
    const packages = new Set(
      record.bundles.flatMap((b) =>
        Object.keys(b.inputs)
          .map((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1])
          .filter((n): n is string => n !== undefined),
      ),
    );
    for (const name of packages) expect(bom.components.map((c) => c.name)).toContain(name);
  });

  it('lang-structural lists each grammar it ships, with the hash of the shipped file, under the package it comes from', async () => {
    const { bom, dir } = await packed('lang-structural');
    const grammars = Object.values(readJson<{ grammars: { [language: string]: string } }>(join(dir, 'dist', 'languages.json')).grammars);
    expect(grammars.length).toBeGreaterThan(0);
    const wasms = bom.components.find((c) => c.name === 'tree-sitter-wasms');
    expect(wasms?.version).toBe(readJson<{ version: string }>(join(REPO, 'node_modules', 'tree-sitter-wasms', 'package.json')).version);
    for (const grammar of grammars) {
      const file = wasms?.components?.find((f) => f.name === grammar);
      expect(file, grammar).toBeDefined();
      expect(file?.hashes).toEqual([{ alg: 'SHA-256', content: sha256(join(dir, 'dist', grammar)) }]);
    }
    const runtime = bom.components.find((c) => c.name === 'web-tree-sitter');
    expect(runtime?.components?.map((f) => f.name)).toEqual(['tree-sitter.wasm']);
  });

  it('every plugin of the built-in registry is published with its SBOM, and the default licence policy lets each through', async () => {
    const source = await builtinRegistrySource();
    const client = registryClient(source);
    try {
      const { index } = await client.snapshot();
      const ids = Object.keys(index.plugins);
      expect(ids).toContain('lang-typescript');
      const policy = licencePolicyOf({ value: [...DEFAULT_ALLOWED_LICENCES], source: 'default' });
      for (const id of ids) {
        const { doc, artifact } = await client.resolve(id, index.plugins[id]?.latest ?? '*');
        const sbom = await client.sbom(artifact, { name: id, version: doc.version });
        expect(sbom, id).toBeDefined();
        expect(sbom?.bom.compositions[0]?.aggregate, id).toBe('complete');
        expect(sbomPackages(sbom?.bom ?? { components: [] }).length, id).toBeGreaterThan(0);
        expect(checkLicences(`${id}@${doc.version}`, sbom?.bom, policy), id).toEqual({});
      }
    } finally {
      await client.close();
    }
  });
});
