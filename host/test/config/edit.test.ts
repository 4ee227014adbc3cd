import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, setConfigValue, unsetConfigValue } from '../../src/config/index.js';

const repo = () => mkdtempSync(join(tmpdir(), 'travsr-config-'));
const configIn = (root: string) => join(root, '.travsr', 'config.toml');
const resolveFile = (path: string) =>
  resolveConfig({ repoFile: { path, text: readFileSync(path, 'utf8') }, machine: { availableParallelism: 1 } });

describe('setConfigValue', () => {
  it('creates .travsr/config.toml, writes typed TOML and leaves no temporary file', () => {
    const root = repo();
    const path = configIn(root);
    expect(setConfigValue(path, 'index.workers', '4')).toEqual({ path, key: 'index.workers', value: 4 });
    setConfigValue(path, 'index.exclude', 'vendor/**, *.gen.ts');
    setConfigValue(path, 'index.followSymlinks', 'true');
    setConfigValue(path, 'plugins.prefer', 'python=lang-python,go=lang-go');
    setConfigValue(path, 'corpus', 'acme');
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^\[index\]$/m);
    expect(text).toMatch(/^workers = 4$/m);
    expect(text).toMatch(/^followSymlinks = true$/m);
    expect(text).toMatch(/^\[plugins\.prefer\]$/m);
    expect(readdirSync(join(root, '.travsr'))).toEqual(['config.toml']);
    const v = resolveFile(path).values;
    expect(v['index.workers']).toMatchObject({ value: 4, source: 'repo' });
    expect(v['index.exclude'].value).toEqual(['vendor/**', '*.gen.ts']);
    expect(v['index.followSymlinks'].value).toBe(true);
    expect(v['plugins.prefer'].value).toEqual({ python: 'lang-python', go: 'lang-go' });
    expect(v.corpus.value).toBe('acme');
  });

  it('keeps the other keys of the file, unknown ones included, and replaces the value it sets', () => {
    const root = repo();
    const path = configIn(root);
    setConfigValue(path, 'log.level', 'info');
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n# mine\n[custom]\nkept = "yes"\n[index]\nmaxFileBytes = 2048\n`);
    setConfigValue(path, 'log.level', 'debug');
    setConfigValue(path, 'index.workers', '2');
    const cfg = resolveFile(path);
    expect(cfg.values['log.level'].value).toBe('debug');
    expect(cfg.values['index.maxFileBytes'].value).toBe(2048);
    expect(cfg.values['index.workers'].value).toBe(2);
    expect(cfg.warnings.map((w) => w.key)).toEqual(['custom']);
    expect(readFileSync(path, 'utf8')).toMatch(/comments are not kept/);
  });

  it('sets and unsets one entry of a table key', () => {
    const path = configIn(repo());
    setConfigValue(path, 'plugins.prefer.python', 'lang-python');
    setConfigValue(path, 'plugins.prefer.go', 'lang-go');
    expect(resolveFile(path).values['plugins.prefer'].value).toEqual({ python: 'lang-python', go: 'lang-go' });
    expect(unsetConfigValue(path, 'plugins.prefer.python')).toBe(true);
    expect(resolveFile(path).values['plugins.prefer'].value).toEqual({ go: 'lang-go' });
    expect(() => setConfigValue(path, 'plugins.prefer.Go!', 'lang-go')).toThrow(/"Go!" is not a language id/);
  });

  it('refuses an invalid value or an unknown key and writes nothing', () => {
    const path = configIn(repo());
    setConfigValue(path, 'index.workers', '4');
    const before = readFileSync(path, 'utf8');
    expect(() => setConfigValue(path, 'index.workers', '0')).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: 'index.workers must be an integer ≥ 1, got "0"; nothing was written' }),
    );
    expect(() => setConfigValue(path, 'sandbox.tier', 'unsandboxed')).toThrow(
      /sandbox\.tier must be one of standard, native-ipc, elevated/,
    );
    expect(() => setConfigValue(path, 'hook.enabled', 'perhaps')).toThrow(/hook\.enabled must be a boolean/);
    expect(() => setConfigValue(path, 'index.maxfilebytes', '10')).toThrow(
      expect.objectContaining({
        code: 'CONFIG_UNKNOWN_KEY',
        message: expect.stringMatching(/unknown config key "index\.maxfilebytes"; did you mean index\.maxFileBytes\?/),
      }),
    );
    expect(() => setConfigValue(path, 'workers', '2')).toThrow(/did you mean index\.workers\?/);
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('refuses to rewrite a file that is not valid TOML, naming line and column', () => {
    const path = configIn(repo());
    setConfigValue(path, 'index.workers', '4');
    writeFileSync(path, '[index]\nworkers = 4\nexclude = [\n');
    expect(() => setConfigValue(path, 'log.level', 'info')).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(
          new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: TOML syntax error: .*nothing was written`),
        ),
      }),
    );
    expect(readFileSync(path, 'utf8')).toBe('[index]\nworkers = 4\nexclude = [\n');
  });

  it('refuses to set a key under a value that is not a table', () => {
    const path = configIn(repo());
    setConfigValue(path, 'corpus', 'x');
    writeFileSync(path, 'corpus = "x"\nindex = 3\n');
    expect(() => setConfigValue(path, 'index.workers', '2')).toThrow(/config\.toml:2: index is a single value, not a table/);
  });
});

describe('unsetConfigValue', () => {
  it('removes a key and the tables it leaves empty; a second unset reports it was not there', () => {
    const path = configIn(repo());
    setConfigValue(path, 'index.workers', '4');
    setConfigValue(path, 'log.level', 'info');
    expect(unsetConfigValue(path, 'index.workers')).toBe(true);
    expect(readFileSync(path, 'utf8')).not.toMatch(/\[index\]/);
    expect(unsetConfigValue(path, 'index.workers')).toBe(false);
    expect(resolveFile(path).values['log.level'].value).toBe('info');
  });

  it('leaves a missing file missing', () => {
    const path = configIn(repo());
    expect(unsetConfigValue(path, 'log.level')).toBe(false);
    expect(existsSync(path)).toBe(false);
  });

  it('removes an unknown key that is in the file, but refuses unknown keys that are not, and whole tables', () => {
    const path = configIn(repo());
    setConfigValue(path, 'index.workers', '4');
    writeFileSync(path, '[index]\nworkers = 4\nworker = 4\n');
    expect(unsetConfigValue(path, 'index.worker')).toBe(true);
    expect(resolveFile(path).warnings).toEqual([]);
    expect(() => unsetConfigValue(path, 'index.worker')).toThrow(expect.objectContaining({ code: 'CONFIG_UNKNOWN_KEY' }));
    expect(() => unsetConfigValue(path, 'index')).toThrow(/unknown config key "index"; did you mean index\./);
    expect(resolveFile(path).values['index.workers'].value).toBe(4);
  });
});
