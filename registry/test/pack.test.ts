import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { list, type ReadEntry } from 'tar';
import { describe, expect, it } from 'vitest';
import { packPlugin } from '../src/pack.js';
import { treeHash } from '../src/tree-hash.js';
import { tempDir } from './tar-fixtures.js';

const EXAMPLE_LUA = resolve(fileURLToPath(import.meta.url), '../../../plugins/example-lua');

const MANIFEST = {
  id: 'tiny',
  version: '1.0.0',
  languages: ['tiny'],
  extensions: ['.tiny'],
  entrypoint: { runtime: 'node', path: 'dist/main.js' },
  protocolVersions: ['1'],
  constraints: { network: false, ipc: 'none', hostApi: false },
};

/** A minimal plugin directory; `extra` can add or override manifest fields. */
function tinyPlugin(extra: Record<string, unknown> = {}): string {
  const dir = tempDir('travsr-tiny-');
  mkdirSync(join(dir, 'dist'));
  writeFileSync(join(dir, 'travsr-plugin.json'), JSON.stringify({ ...MANIFEST, ...extra }));
  writeFileSync(join(dir, 'dist', 'main.js'), 'console.log("tiny")\n');
  return dir;
}

async function headers(file: string): Promise<{ path: string; mode: number; uid: number; gid: number; mtime: string; type: string }[]> {
  const out: { path: string; mode: number; uid: number; gid: number; mtime: string; type: string }[] = [];
  await list({
    file,
    onReadEntry: (e: ReadEntry) => {
      out.push({ path: e.path, mode: e.mode ?? -1, uid: e.uid ?? -1, gid: e.gid ?? -1, mtime: e.mtime?.toISOString() ?? '', type: e.type });
    },
  });
  return out;
}

describe('packPlugin', () => {
  it('packs example-lua deterministically, without tests, snapshots or node_modules', async () => {
    const a = await packPlugin(EXAMPLE_LUA, tempDir());
    const b = await packPlugin(EXAMPLE_LUA, tempDir());
    expect(basename(a.file)).toBe('example-lua-0.1.0-any.tgz');
    expect(a.sha256).toBe(b.sha256);
    expect(readFileSync(a.file).equals(readFileSync(b.file))).toBe(true);
    expect(a.size).toBe(readFileSync(a.file).length);
    expect(a.manifest.id).toBe('example-lua');
    expect(a.files).toContain('dist/main.js');
    expect(a.files).toContain('dist/tree-sitter-lua.wasm');
    expect(a.files).toContain('travsr-plugin.json');
    expect(a.files.filter((f) => /^(test|snapshots)\/|(^|\/)(node_modules|\.git)\//.test(f))).toEqual([]);

    const entries = await headers(a.file);
    expect(entries.map((e) => e.path)).toEqual(a.files.map((f) => `package/${f}`));
    expect([...entries.map((e) => e.path)].sort()).toEqual(entries.map((e) => e.path));
    for (const e of entries) {
      expect(e).toMatchObject({ uid: 0, gid: 0, mtime: '1985-10-26T08:15:00.000Z', type: 'File' });
      expect([0o644, 0o755]).toContain(e.mode);
    }
  });

  it('records the tree hash of the packed files: the source without the excluded folders', async () => {
    const packed = await packPlugin(EXAMPLE_LUA, tempDir());
    const copy = join(tempDir(), 'example-lua');
    cpSync(EXAMPLE_LUA, copy, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) =>
        !/[/\\](node_modules|\.git)$/.test(src) && ![join(EXAMPLE_LUA, 'test'), join(EXAMPLE_LUA, 'snapshots')].includes(src),
    });
    expect(packed.treeHash).toBe(await treeHash(copy));
  });

  it('keeps inner symlinks and the execute bit', async () => {
    const dir = tinyPlugin({ entrypoint: { runtime: 'exec', path: 'bin/run' } });
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'tool'), '#!/bin/sh\n', { mode: 0o700 });
    symlinkSync('tool', join(dir, 'bin', 'run'));
    const packed = await packPlugin(dir, tempDir());
    const entries = await headers(packed.file);
    expect(entries.find((e) => e.path === 'package/bin/tool')?.mode).toBe(0o755);
    expect(entries.find((e) => e.path === 'package/bin/run')?.type).toBe('SymbolicLink');
    expect(entries.find((e) => e.path === 'package/dist/main.js')?.mode).toBe(0o644);
  });

  it('leaves out its own output directory when it lies inside the plugin', async () => {
    const dir = tinyPlugin();
    const first = await packPlugin(dir, join(dir, 'out'));
    const second = await packPlugin(dir, join(dir, 'out'));
    expect(second.files).toEqual(['dist/main.js', 'travsr-plugin.json']);
    expect(second.sha256).toBe(first.sha256);
  });

  it('writes a CycloneDX SBOM beside the artifact, from the build record next to the entrypoint', async () => {
    const dir = tinyPlugin();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tiny', version: '1.0.0', license: 'Apache-2.0' }));
    mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'dep', 'package.json'), JSON.stringify({ name: 'dep', version: '4.5.6', license: 'ISC' }));
    writeFileSync(join(dir, 'node_modules', 'dep', 'index.js'), 'export const x = 1;\n');
    const record = {
      bundler: { name: 'esbuild', version: '0.0.1' },
      bundles: [{ output: 'dist/main.js', inputs: { 'node_modules/dep/index.js': 20 } }],
      assets: [],
    };
    writeFileSync(join(dir, 'dist', 'build-record.json'), JSON.stringify(record));
    const out = tempDir();
    const packed = await packPlugin(dir, out);
    expect(packed.sbom).toMatchObject({
      file: join(out, 'tiny-1.0.0-any.cdx.json'),
      specVersion: '1.6',
      components: 1,
      aggregate: 'complete',
    });
    const text = readFileSync(packed.sbom.file, 'utf8');
    expect(packed.sbom.sha256).toBe(createHash('sha256').update(text).digest('hex'));
    const bom = JSON.parse(text) as {
      metadata: { component: { name: string; licenses: unknown } };
      components: { name: string; version: string }[];
    };
    expect(bom.metadata.component).toMatchObject({ name: 'tiny', licenses: [{ license: { id: 'Apache-2.0' } }] });
    expect(bom.components.map((c) => `${c.name}@${c.version}`)).toEqual(['dep@4.5.6']);
    // The artifact itself is the plugin directory as before: the SBOM lies beside it.
    expect(packed.files).toEqual(['dist/build-record.json', 'dist/main.js', 'package.json', 'travsr-plugin.json']);
  });

  it('without a build record the SBOM names the plugin alone and says its contents are unknown', async () => {
    const packed = await packPlugin(tinyPlugin(), tempDir());
    expect(packed.sbom).toMatchObject({ components: 0, aggregate: 'unknown' });
  });

  it('refuses a build record that is not one; one naming files that are not here gives an incomplete SBOM', async () => {
    const broken = tinyPlugin();
    writeFileSync(join(broken, 'dist', 'build-record.json'), '{"bundles": 3}');
    await expect(packPlugin(broken, tempDir())).rejects.toMatchObject({ code: 'PACK_BUILD_RECORD_INVALID' });
    const elsewhere = tinyPlugin();
    const record = {
      bundler: { name: 'esbuild', version: '0.0.1' },
      bundles: [{ output: 'dist/main.js', inputs: { 'node_modules/gone/index.js': 5 } }],
      assets: [],
    };
    writeFileSync(join(elsewhere, 'dist', 'build-record.json'), JSON.stringify(record));
    expect((await packPlugin(elsewhere, tempDir())).sbom).toMatchObject({ components: 0, aggregate: 'incomplete' });
  });

  it('refuses a directory without travsr-plugin.json', async () => {
    const dir = tempDir();
    await expect(packPlugin(dir, tempDir())).rejects.toMatchObject({
      code: 'PACK_NOT_A_PLUGIN',
      message: expect.stringMatching(/has no travsr-plugin.json, so it is not a Travsr plugin/),
    });
  });

  it('refuses an invalid manifest', async () => {
    await expect(packPlugin(tinyPlugin({ id: '../evil' }), tempDir())).rejects.toMatchObject({ code: 'PACK_MANIFEST_INVALID' });
  });

  it('refuses symlinks that leave the plugin, are absolute, or point at unpacked files', async () => {
    const escaping = tinyPlugin();
    symlinkSync('../../../etc/passwd', join(escaping, 'dist', 'evil'));
    await expect(packPlugin(escaping, tempDir())).rejects.toMatchObject({
      code: 'PACK_LINK_ESCAPE',
      message: expect.stringMatching(/dist\/evil: it is a symlink to \.\.\/\.\.\/\.\.\/etc\/passwd, outside the plugin directory/),
    });
    const absolute = tinyPlugin();
    symlinkSync('/etc/passwd', join(absolute, 'passwd'));
    await expect(packPlugin(absolute, tempDir())).rejects.toMatchObject({
      code: 'PACK_LINK_ESCAPE',
      message: expect.stringMatching(/absolute path/),
    });
    const excluded = tinyPlugin();
    mkdirSync(join(excluded, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(join(excluded, 'node_modules', 'dep', 'index.js'), '');
    symlinkSync('node_modules/dep/index.js', join(excluded, 'dist', 'dep.js'));
    await expect(packPlugin(excluded, tempDir())).rejects.toMatchObject({
      code: 'PACK_LINK_ESCAPE',
      message: expect.stringMatching(/which is not packed/),
    });
  });

  it('refuses special files', async () => {
    const dir = tinyPlugin();
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await expect(packPlugin(dir, tempDir())).rejects.toMatchObject({
      code: 'PACK_SPECIAL_FILE',
      message: expect.stringMatching(/^cannot pack pipe/),
    });
  });

  it('refuses names that collide on case-insensitive file systems', async () => {
    const dir = tinyPlugin();
    writeFileSync(join(dir, 'README'), 'a');
    writeFileSync(join(dir, 'readme'), 'b');
    await expect(packPlugin(dir, tempDir())).rejects.toMatchObject({ code: 'PACK_PATH_UNPORTABLE' });
  });

  it('refuses a plugin whose entrypoint is not packed (not built, or left out)', async () => {
    await expect(packPlugin(tinyPlugin({ entrypoint: { runtime: 'node', path: 'dist/missing.js' } }), tempDir())).rejects.toMatchObject({
      code: 'PACK_ENTRYPOINT_MISSING',
      message: expect.stringMatching(/entrypoint dist\/missing.js is not among the packed files; build the plugin first/),
    });
    const inTest = tinyPlugin({ entrypoint: { runtime: 'node', path: 'test/main.js' } });
    mkdirSync(join(inTest, 'test'));
    writeFileSync(join(inTest, 'test', 'main.js'), '');
    await expect(packPlugin(inTest, tempDir())).rejects.toMatchObject({ code: 'PACK_ENTRYPOINT_MISSING' });
    await expect(packPlugin(tinyPlugin({ entrypoint: { runtime: 'exec', path: 'dist/main.js' } }), tempDir())).rejects.toMatchObject({
      code: 'PACK_ENTRYPOINT_MISSING',
      message: expect.stringMatching(/is not executable/),
    });
  });
});
