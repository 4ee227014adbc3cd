import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { licenceAllowed, DEFAULT_ALLOWED_LICENCES } from '../src/licence-policy.js';
import { buildSbom, npmPurl, packageOfFile, sbomPackages, type BuildRecord } from '../src/sbom.js';
import { tempDir } from './tar-fixtures.js';

const REPO = resolve(fileURLToPath(import.meta.url), '../../..');
const esbuildVersion = (JSON.parse(readFileSync(join(REPO, 'node_modules/esbuild/package.json'), 'utf8')) as { version: string }).version;

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The bundler's own record, as a plugin build keeps it: bytes of each input in each output. */
function recordOf(metafile: Metafile, assets: BuildRecord['assets'] = []): BuildRecord {
  return {
    bundler: { name: 'esbuild', version: esbuildVersion },
    bundles: Object.entries(metafile.outputs).map(([output, o]) => ({
      output,
      inputs: Object.fromEntries(Object.entries(o.inputs).map(([input, i]) => [input, i.bytesInOutput])),
    })),
    assets,
  };
}

/** Bundles `entry` of `root` into `root/dist/main.js` as a plugin build does, keeping the metafile. */
function bundle(root: string, entry: string, nodePaths: string[] = []) {
  return build({
    entryPoints: [join(root, entry)],
    outfile: join(root, 'dist/main.js'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    metafile: true,
    absWorkingDir: root,
    nodePaths,
    logLevel: 'silent',
  });
}

/** A plugin project with two installed packages (one bundled, one only imported for a type) and a lockfile. */
function project(): string {
  const root = tempDir('travsr-sbom-');
  write(join(root, 'package.json'), JSON.stringify({ name: 'lang-tiny', version: '1.2.0', license: 'Apache-2.0' }));
  write(
    join(root, 'src/main.ts'),
    "import { pad } from '@acme/pad';\nimport type { Unused } from 'types-only';\nconsole.log(pad('x') as Unused);\n",
  );
  write(
    join(root, 'node_modules/@acme/pad/package.json'),
    JSON.stringify({ name: '@acme/pad', version: '2.0.1', license: 'MIT', main: 'index.js' }),
  );
  write(join(root, 'node_modules/@acme/pad/index.js'), 'exports.pad = (s) => ` ${s}`;\n');
  write(
    join(root, 'node_modules/types-only/package.json'),
    JSON.stringify({ name: 'types-only', version: '1.0.0', license: 'GPL-3.0-only', types: 'index.d.ts' }),
  );
  write(join(root, 'node_modules/types-only/index.d.ts'), 'export type Unused = string;\n');
  write(
    join(root, 'node_modules/grammars/package.json'),
    JSON.stringify({ name: 'grammars', version: '0.3.0', licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] }),
  );
  write(join(root, 'node_modules/grammars/out/tree-sitter-tiny.wasm'), '\0asm tiny');
  const integrity = `sha512-${createHash('sha512').update('pad').digest('base64')}`;
  write(
    join(root, 'package-lock.json'),
    JSON.stringify({
      lockfileVersion: 3,
      packages: { '': { name: 'lang-tiny' }, 'node_modules/@acme/pad': { version: '2.0.1', integrity } },
    }),
  );
  return root;
}

describe('buildSbom', () => {
  it('lists every package the bundler took bytes from, with version, licence and integrity, and each copied file under its package', async () => {
    const root = project();
    const result = await bundle(root, 'src/main.ts');
    write(join(root, 'dist/tree-sitter-tiny.wasm'), '\0asm tiny');
    const record = recordOf(result.metafile, [
      { file: 'dist/tree-sitter-tiny.wasm', source: 'node_modules/grammars/out/tree-sitter-tiny.wasm' },
    ]);
    const bom = buildSbom({ name: 'lang-tiny', version: '1.2.0', licence: 'Apache-2.0' }, record, root);

    // The bundler's record: which inputs have bytes in the output.
    const bundledInputs = Object.entries(result.metafile.outputs['dist/main.js']?.inputs ?? {})
      .filter(([, i]) => i.bytesInOutput > 0)
      .map(([p]) => p);
    expect(bundledInputs).toContain('node_modules/@acme/pad/index.js');
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.specVersion).toBe('1.6');
    expect(bom.metadata.component).toMatchObject({ name: 'lang-tiny', version: '1.2.0', licenses: [{ license: { id: 'Apache-2.0' } }] });
    expect(bom.metadata.tools.components).toEqual([{ type: 'application', name: 'esbuild', version: esbuildVersion }]);
    // The plugin's own source is the subject, and a type-only import brings nothing.
    expect(bom.components.map((c) => `${c.name}@${c.version}`)).toEqual(['@acme/pad@2.0.1', 'grammars@0.3.0']);
    const pad = bom.components[0];
    expect(pad?.purl).toBe('pkg:npm/%40acme/pad@2.0.1');
    expect(pad?.licenses).toEqual([{ license: { id: 'MIT' } }]);
    expect(pad?.hashes).toEqual([{ alg: 'SHA-512', content: createHash('sha512').update('pad').digest('hex') }]);
    expect(pad?.properties).toContainEqual({ name: 'travsr:bundled-into', value: 'dist/main.js' });
    const grammars = bom.components[1];
    expect(grammars?.licenses).toEqual([{ expression: '(MIT OR Apache-2.0)' }]);
    expect(grammars?.hashes).toBeUndefined();
    expect(grammars?.components).toEqual([
      {
        type: 'file',
        name: 'tree-sitter-tiny.wasm',
        hashes: [{ alg: 'SHA-256', content: createHash('sha256').update('\0asm tiny').digest('hex') }],
        properties: [
          { name: 'travsr:shipped-as', value: 'dist/tree-sitter-tiny.wasm' },
          { name: 'travsr:source', value: 'out/tree-sitter-tiny.wasm' },
        ],
      },
    ]);
    expect(bom.dependencies).toEqual([
      { ref: 'pkg:generic/lang-tiny@1.2.0', dependsOn: ['pkg:npm/%40acme/pad@2.0.1', 'pkg:npm/grammars@0.3.0'] },
    ]);
    expect(bom.compositions).toEqual([{ aggregate: 'complete', assemblies: ['pkg:generic/lang-tiny@1.2.0'] }]);
    // Deterministic: the same inputs give the same document, serial number included.
    expect(JSON.stringify(buildSbom({ name: 'lang-tiny', version: '1.2.0', licence: 'Apache-2.0' }, record, root))).toBe(
      JSON.stringify(bom),
    );
    expect(bom.serialNumber).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(sbomPackages(bom)).toEqual([
      { name: '@acme/pad', version: '2.0.1', licence: 'MIT' },
      { name: 'grammars', version: '0.3.0', licence: '(MIT OR Apache-2.0)' },
    ]);
  });

  it('names the real TypeScript compiler at the version the bundler took it from, with npm’s integrity from the lockfile', async () => {
    const root = tempDir('travsr-sbom-ts-');
    write(join(root, 'package.json'), JSON.stringify({ name: 'uses-ts', version: '0.0.1' }));
    write(join(root, 'main.ts'), "import ts from 'typescript';\nconsole.log(ts.version);\n");
    const result = await bundle(root, 'main.ts', [join(REPO, 'node_modules')]);
    const bom = buildSbom({ name: 'uses-ts', version: '0.0.1' }, recordOf(result.metafile), root);
    const installed = JSON.parse(readFileSync(join(REPO, 'node_modules/typescript/package.json'), 'utf8')) as { version: string };
    const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity: string }> };
    const ts = bom.components.find((c) => c.name === 'typescript');
    expect(ts?.version).toBe(installed.version);
    expect(ts?.purl).toBe(npmPurl('typescript', installed.version));
    expect(ts?.licenses).toEqual([{ license: { id: 'Apache-2.0' } }]);
    const sri = lock.packages['node_modules/typescript']?.integrity ?? '';
    expect(ts?.hashes?.[0]?.content).toBe(Buffer.from(sri.replace(/^sha512-/, ''), 'base64').toString('hex'));
    expect(Number(ts?.properties?.find((p) => p.name === 'travsr:bundled-bytes')?.value)).toBeGreaterThan(1_000_000);
  });

  it('without a build record: only the subject, and the composition says the contents are unknown', () => {
    const root = tempDir('travsr-sbom-none-');
    const bom = buildSbom({ name: 'hand-made', version: '3.0.0' }, undefined, root);
    expect(bom.components).toEqual([]);
    expect(bom.compositions).toEqual([{ aggregate: 'unknown', assemblies: ['pkg:generic/hand-made@3.0.0'] }]);
    expect(bom.metadata.tools.components).toEqual([]);
  });

  it('packageOfFile: the package after the last node_modules, or the nearest package.json', () => {
    const root = project();
    expect(packageOfFile(join(root, 'node_modules/@acme/pad/index.js'))).toMatchObject({
      name: '@acme/pad',
      version: '2.0.1',
      licence: 'MIT',
    });
    expect(packageOfFile(join(root, 'src/main.ts'))).toMatchObject({ name: 'lang-tiny', dir: root, integrity: undefined });
  });

  it('packageOfFile: reads a lockfile again once it changed (parsed lockfiles are kept while unchanged)', () => {
    const root = project();
    const pad = join(root, 'node_modules/@acme/pad/index.js');
    expect(packageOfFile(pad)?.integrity).toMatch(/^sha512-/);
    const other = `sha512-${createHash('sha512').update('another pad').digest('base64')}`;
    writeFileSync(
      join(root, 'package-lock.json'),
      JSON.stringify({
        lockfileVersion: 3,
        packages: { '': { name: 'lang-tiny' }, 'node_modules/@acme/pad': { version: '2.0.1', integrity: other, resolved: 'file:pad' } },
      }),
    );
    expect(packageOfFile(pad)?.integrity).toBe(other);
  });
});

describe('buildSbom: packages shipped whole or installed beside the subject', () => {
  it('marks how each ships, and gives one component per name and version however many copies npm installed', async () => {
    const root = project();
    // A second copy of @acme/pad@2.0.1, nested under another package, bundled too; and a dependency npm installs.
    write(
      join(root, 'node_modules/wrapper/package.json'),
      JSON.stringify({ name: 'wrapper', version: '1.0.0', license: 'MIT', main: 'index.js' }),
    );
    write(join(root, 'node_modules/wrapper/index.js'), "exports.wrap = require('@acme/pad').pad;\n");
    write(
      join(root, 'node_modules/wrapper/node_modules/@acme/pad/package.json'),
      JSON.stringify({ name: '@acme/pad', version: '2.0.1', license: 'MIT', main: 'index.js' }),
    );
    write(join(root, 'node_modules/wrapper/node_modules/@acme/pad/index.js'), 'exports.pad = (s) => `  ${s}`;\n');
    write(join(root, 'node_modules/native/package.json'), JSON.stringify({ name: 'native', version: '3.0.0', license: 'ISC' }));
    write(
      join(root, 'src/main.ts'),
      "import { pad } from '@acme/pad';\nimport { wrap } from 'wrapper';\nconsole.log(pad('x'), wrap('y'));\n",
    );
    const { metafile } = await bundle(root, 'src/main.ts');
    const bom = buildSbom({ name: 'tiny-cli', version: '1.0.0' }, recordOf(metafile), root, {
      packages: [
        { dir: join(root, 'node_modules/wrapper'), shippedAs: 'packaged' },
        { dir: join(root, 'node_modules/native'), shippedAs: 'npm-dependency' },
      ],
    });
    const pads = bom.components.filter((c) => c.name === '@acme/pad');
    expect(pads).toHaveLength(1);
    const bytes = Object.entries(metafile.outputs['dist/main.js']?.inputs ?? {})
      .filter(([input]) => input.includes('@acme/pad'))
      .reduce((n, [, i]) => n + i.bytesInOutput, 0);
    expect(pads[0]?.properties).toContainEqual({ name: 'travsr:bundled-bytes', value: String(bytes) });
    expect(bom.components.find((c) => c.name === 'wrapper')?.properties).toContainEqual({ name: 'travsr:shipped-as', value: 'packaged' });
    expect(bom.components.find((c) => c.name === 'native')).toMatchObject({
      version: '3.0.0',
      licenses: [{ license: { id: 'ISC' } }],
      properties: [{ name: 'travsr:shipped-as', value: 'npm-dependency' }],
    });
  });
});

describe('licenceAllowed', () => {
  const allowed = ['MIT', 'Apache-2.0'];
  it.each([
    ['MIT', true],
    ['mit', true],
    ['GPL-3.0-only', false],
    ['(MIT OR GPL-3.0-only)', true],
    ['MIT AND GPL-3.0-only', false],
    ['MIT AND Apache-2.0', true],
    ['(GPL-2.0-only OR MIT) AND Apache-2.0', true],
    ['Apache-2.0 WITH LLVM-exception', true],
    ['GPL-2.0+', false],
    ['MIT OR', false],
    ['(MIT', false],
  ])('%s → %s', (expression, ok) => {
    expect(licenceAllowed(expression, allowed)).toBe(ok);
  });

  it('a package without a licence passes only with NOASSERTION; * allows anything', () => {
    expect(licenceAllowed(undefined, allowed)).toBe(false);
    expect(licenceAllowed(undefined, [...allowed, 'NOASSERTION'])).toBe(true);
    expect(licenceAllowed('SSPL-1.0', ['*'])).toBe(true);
  });

  it('the default policy lets through what the first-party plugins bundle', () => {
    for (const l of ['Apache-2.0', 'MIT', 'Unlicense', '(MIT OR Apache-2.0)', 'ISC', 'BSD-3-Clause'])
      expect(licenceAllowed(l, DEFAULT_ALLOWED_LICENCES)).toBe(true);
  });
});
