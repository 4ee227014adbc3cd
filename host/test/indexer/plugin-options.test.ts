import { describe, expect, it } from 'vitest';
import { pluginOptionsFor } from '../../src/indexer/plugin-options.js';

describe('pluginOptionsFor', () => {
  it('gives each plugin its own options from plugins.options, none when the user set none', () => {
    const options = { 'lang-python.scipPython': 'true', 'acme/lang.x.depth': '3', 'lang-go.verbose': '1' };
    expect(pluginOptionsFor('lang-python', options)).toEqual({ scipPython: 'true' });
    // A plugin id may hold dots and a scope; the option is after the last dot.
    expect(pluginOptionsFor('acme/lang.x', options)).toEqual({ depth: '3' });
    expect(pluginOptionsFor('lang', options)).toBeUndefined();
    expect(pluginOptionsFor('lang-python', undefined)).toBeUndefined();
  });
});
