import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { treeHash } from '@travsr/registry/tree-hash';
import { afterAll, describe, expect, it } from 'vitest';
import { pluginDigests, savePluginDigests } from '../../src/plugins/tree-digests.js';

const savedHome = process.env['TRAVSR_HOME'];
afterAll(() => {
  process.env['TRAVSR_HOME'] = savedHome;
});

describe('plugin file digests kept in the Travsr home', () => {
  it('are saved after a hash that read files, and loaded by the next process (here: after switching homes)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'travsr-digests-'));
    const other = mkdtempSync(join(tmpdir(), 'travsr-digests-other-'));
    const dir = mkdtempSync(join(tmpdir(), 'travsr-digests-plugin-'));
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'main.js'), 'console.log(1)\n');
    process.env['TRAVSR_HOME'] = home;
    const hash = await treeHash(dir, pluginDigests());
    savePluginDigests();
    const file = join(home, 'tree-digests.json');
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)).toEqual([join(dir, 'dist', 'main.js')]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    process.env['TRAVSR_HOME'] = other;
    expect(pluginDigests().toJSON()).toEqual({});
    process.env['TRAVSR_HOME'] = home;
    const loaded = pluginDigests();
    expect(loaded.changed).toBe(false);
    expect(await treeHash(dir, loaded)).toBe(hash);
    expect(loaded.changed).toBe(false); // answered from the saved digests: nothing read, nothing to save
  });

  it('start empty from a file that is not JSON', () => {
    const home = mkdtempSync(join(tmpdir(), 'travsr-digests-bad-'));
    writeFileSync(join(home, 'tree-digests.json'), '{ not json');
    process.env['TRAVSR_HOME'] = home;
    expect(pluginDigests().toJSON()).toEqual({});
  });
});
