import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildIfChanged, FORCE_BUILD_ENV, pluginBuildStep, treeDigest } from '../../src/build/index.js';

/**
 * A workspace as npm lays it out: a plugin and a linked package (`sdk/`) beside it, an
 * installed package under node_modules, and the lockfiles.
 */
function workspace(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-build-stamp-')));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('package-lock.json', '{"lockfileVersion":3}');
  write('node_modules/.package-lock.json', '{"lockfileVersion":3}');
  write('node_modules/installed/package.json', '{"name":"installed"}');
  write('sdk/package.json', '{"name":"sdk"}');
  write('sdk/dist/index.js', 'export const sdk = 1;');
  write('sdk/src/index.ts', 'export const sdk = 1;');
  symlinkSync(join(root, 'sdk'), join(root, 'node_modules', 'sdk'));
  write('plugin/package.json', '{"name":"plugin","dependencies":{"sdk":"*","installed":"*"}}');
  write('plugin/src/main.ts', 'export {};');
  return root;
}

describe('buildIfChanged', () => {
  let root: string;
  let builds: number;
  const build =
    (r = root) =>
    () => {
      builds++;
      mkdirSync(join(r, 'plugin', 'dist'), { recursive: true });
      writeFileSync(join(r, 'plugin', 'dist', 'main.js'), `built ${builds}`);
    };
  const run = () => buildIfChanged(pluginBuildStep(join(root, 'plugin')), build());

  beforeEach(() => {
    root = workspace();
    builds = 0;
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds once, then not again while nothing it reads changed', async () => {
    expect(await run()).toBe(true);
    expect(await run()).toBe(false);
    expect(builds).toBe(1);
    expect(console.log).toHaveBeenCalledWith(expect.stringMatching(/^plugin: up to date/));
  });

  it('builds again after a change to its sources, to a linked package it uses or to the lockfile', async () => {
    await run();
    writeFileSync(join(root, 'plugin', 'src', 'main.ts'), 'export const x = 1;');
    expect(await run()).toBe(true);
    writeFileSync(join(root, 'plugin', 'src', 'added.ts'), 'export {};');
    expect(await run()).toBe(true);
    writeFileSync(join(root, 'sdk', 'dist', 'index.js'), 'export const sdk = 2;');
    expect(await run()).toBe(true);
    writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{"lockfileVersion":3,"packages":{}}');
    expect(await run()).toBe(true);
    expect(await run()).toBe(false);
    expect(builds).toBe(5);
  });

  it('builds again when its output was edited or removed, and not for changes it does not read', async () => {
    await run();
    writeFileSync(join(root, 'plugin', 'dist', 'main.js'), 'edited by hand');
    expect(await run()).toBe(true);
    rmSync(join(root, 'plugin', 'dist'), { recursive: true });
    expect(await run()).toBe(true);
    // The linked package's sources are built into its dist/, which is what counts; an installed
    // package is pinned by the lockfile.
    writeFileSync(join(root, 'sdk', 'src', 'index.ts'), 'export const sdk = 3;');
    writeFileSync(join(root, 'node_modules', 'installed', 'index.js'), '');
    expect(await run()).toBe(false);
    expect(builds).toBe(3);
  });

  it('writes no stamp for a build that fails, and builds every time when forced', async () => {
    const failing = buildIfChanged(pluginBuildStep(join(root, 'plugin')), () => {
      throw new Error('tsc found errors');
    });
    await expect(failing).rejects.toThrow('tsc found errors');
    expect(await run()).toBe(true);
    vi.stubEnv(FORCE_BUILD_ENV, '1');
    expect(await run()).toBe(true);
    vi.unstubAllEnvs();
    expect(await run()).toBe(false);
  });
});

describe('treeDigest', () => {
  it('tells a renamed file and a missing path apart, and leaves node_modules out', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'travsr-build-digest-')));
    try {
      writeFileSync(join(root, 'a.txt'), 'same');
      const before = treeDigest([root]);
      rmSync(join(root, 'a.txt'));
      writeFileSync(join(root, 'b.txt'), 'same');
      expect(treeDigest([root])).not.toBe(before);
      expect(treeDigest([join(root, 'gone')])).not.toBe(treeDigest([join(root, 'gone'), root]));
      const withB = treeDigest([root]);
      mkdirSync(join(root, 'node_modules'));
      writeFileSync(join(root, 'node_modules', 'x.js'), '');
      expect(treeDigest([root])).toBe(withB);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
