// Finding 10 of issue 12: `travsr plugin new ./x`, the README's own form, failed with esbuild's
// "not an absolute path" and left a partial directory that made every retry fail.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { travsr } from '../helpers/run-cli.js';

const work = mkdtempSync(join(tmpdir(), 'travsr-plugin-new-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('finding 10: `travsr plugin new ./x` fails with an esbuild "not an absolute path" and leaves a partial directory that blocks a retry', () => {
  it('creates the plugin from a relative directory, complete, with nothing else left behind', async () => {
    const made = await travsr(['plugin', 'new', './lang-rel', '--language', 'mylang', '--extension', '.my'], { cwd: work });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('created plugin lang-rel in ./lang-rel');
    const dir = join(work, 'lang-rel');
    expect(JSON.parse(readFileSync(join(dir, 'travsr-plugin.json'), 'utf8'))).toMatchObject({ id: 'lang-rel', extensions: ['.my'] });
    expect(existsSync(join(dir, 'dist', 'main.js'))).toBe(true);
    expect(readFileSync(join(dir, 'snapshots/output/example.my'), 'utf8')).toMatch(/definition function/);
    // No staging directory is left next to it.
    expect(readdirSync(work)).toEqual(['lang-rel']);
    const tested = await travsr(['plugin', 'test', './lang-rel'], { cwd: work });
    expect(tested.code, tested.stdout + tested.stderr).toBe(0);
  }, 180_000);

  it('a failed run leaves nothing behind, so the same command can simply be run again', async () => {
    const failed = await travsr(['plugin', 'new', './lang-retry', '--id', 'Not A Valid Id'], { cwd: work });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/PLUGIN_MANIFEST_INVALID.*plugin id "Not A Valid Id" must be lowercase letters, digits/);
    expect(readdirSync(work).filter((n) => n.includes('lang-retry'))).toEqual([]);
    const again = await travsr(['plugin', 'new', './lang-retry'], { cwd: work });
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(work, 'lang-retry', 'dist', 'main.js'))).toBe(true);
  }, 120_000);
});
