import { describe, expect, it } from 'vitest';
import { CONFIG_KEYS, CONFIG_SCHEMA, closeConfigKeys, configFlagName, formatConfigValue, valueFromText } from '../../src/config/index.js';

describe('config schema', () => {
  it('names every environment variable TRAVSR_<KEY IN SNAKE CASE>', () => {
    for (const key of CONFIG_KEYS)
      expect(CONFIG_SCHEMA[key].env).toBe(
        `TRAVSR_${key
          .replace(/([a-z])([A-Z])/g, '$1_$2')
          .replace(/\./g, '_')
          .toUpperCase()}`,
      );
    expect(configFlagName('index.maxFileBytes')).toBe('--index-max-file-bytes');
  });

  it('reads booleans and integers written as text', () => {
    for (const t of ['true', 'TRUE', '1', 'yes', 'on']) expect(valueFromText('hook.enabled', t)).toEqual({ ok: true, value: true });
    for (const t of ['false', '0', 'no', 'Off']) expect(valueFromText('hook.enabled', t)).toEqual({ ok: true, value: false });
    expect(valueFromText('index.maxFileBytes', '1_048_576')).toEqual({ ok: true, value: 1048576 });
    expect(valueFromText('index.maxFileBytes', '1MiB')).toMatchObject({ ok: false });
    expect(valueFromText('index.workers', '-2')).toMatchObject({ ok: false });
    expect(valueFromText('index.exclude', '')).toEqual({ ok: true, value: [] });
    // Plugin options: "<plugin id>.<option>", scoped ids too; `tools` is the host's own.
    expect(valueFromText('plugins.options', 'lang-python.scipPython=true, acme/lang-x.depth=3')).toEqual({
      ok: true,
      value: { 'lang-python.scipPython': 'true', 'acme/lang-x.depth': '3' },
    });
    expect(valueFromText('plugins.options', 'lang-python=true')).toMatchObject({ ok: false });
    expect(valueFromText('plugins.options', 'lang-go.tools=x')).toMatchObject({ ok: false });
    // `cacheDir` too: the host alone says where a plugin's cache is.
    expect(valueFromText('plugins.options', 'lang-python.cacheDir=/home/u')).toMatchObject({ ok: false });
    expect(valueFromText('plugins.cacheMax', '-1')).toMatchObject({ ok: false });
    expect(valueFromText('plugins.cacheMax', '0')).toEqual({ ok: true, value: 0 });
  });

  it('suggests close key names for typos, other separators and missing tables', () => {
    expect(closeConfigKeys('index.wokers')).toEqual(['index.workers']);
    expect(closeConfigKeys('max_file_bytes')).toEqual(['index.maxFileBytes']);
    expect(closeConfigKeys('log-level')).toEqual(['log.level']);
    expect(closeConfigKeys('tier')).toEqual(['sandbox.tier']);
    expect(closeConfigKeys('plugins')).toEqual(['plugins.cacheMax', 'plugins.dirs', 'plugins.network']);
    expect(closeConfigKeys('plugins.prefer.python')).toEqual(['plugins.prefer']);
    expect(closeConfigKeys('telemetry')).toEqual([]);
  });

  it('formats values as TOML', () => {
    expect(formatConfigValue('a')).toBe('"a"');
    expect(formatConfigValue(['a', 'b'])).toBe('["a", "b"]');
    expect(formatConfigValue({ python: 'lang-python', 'c++': 'x' })).toBe('{ python = "lang-python", "c++" = "x" }');
    expect(formatConfigValue({})).toBe('{}');
    expect(formatConfigValue(4)).toBe('4');
  });
});
