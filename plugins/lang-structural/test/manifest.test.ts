import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, languageOfPath } from '../src/languages.js';

const manifest = JSON.parse(readFileSync(new URL('../travsr-plugin.json', import.meta.url), 'utf8')) as {
  id: string;
  version: string;
  languages: string[];
  extensions: string[];
  constraints: unknown;
};

/**
 * The host's extension → language table, read from its source: the host decides which
 * language a file of a multi-language plugin is, by this table (a plugin never imports the
 * host, so the test reads the file).
 */
function hostTable(): Map<string, string> {
  const source = readFileSync(new URL('../../../host/src/indexer/walk/well-known-languages.ts', import.meta.url), 'utf8');
  const table = new Map<string, string>();
  for (const m of source.matchAll(/^\s+(\w+): \[([^\]]*)\],$/gm)) {
    for (const key of m[2]!.matchAll(/'([^']+)'/g)) table.set(key[1]!, m[1]!);
  }
  return table;
}

describe('travsr-plugin.json', () => {
  it('is lang-structural 0.1.0, Phase A, asking for nothing', () => {
    expect(manifest).toMatchObject({
      id: 'lang-structural',
      version: '0.1.0',
      constraints: { network: false, ipc: 'none', hostApi: false },
    });
  });

  it('declares exactly the languages and extensions of the language table', () => {
    expect(manifest.languages).toEqual(LANGUAGES.map((l) => l.id));
    expect(manifest.extensions).toEqual(LANGUAGES.flatMap((l) => l.extensions));
  });

  it('claims no language another first-party plugin owns (Ruby went to lang-ruby, Java to lang-java, …)', () => {
    const pluginsDir = new URL('../../', import.meta.url);
    const others = readdirSync(pluginsDir).filter(
      (d) => d !== 'lang-structural' && existsSync(new URL(`${d}/travsr-plugin.json`, pluginsDir)),
    );
    expect(others).toEqual(expect.arrayContaining(['lang-go', 'lang-ruby', 'lang-typescript']));
    for (const other of others) {
      const theirs = (JSON.parse(readFileSync(new URL(`${other}/travsr-plugin.json`, pluginsDir), 'utf8')) as { languages: string[] })
        .languages;
      expect(
        manifest.languages.filter((l) => theirs.includes(l)),
        other,
      ).toEqual([]);
    }
  });

  it('maps every extension to the language id the host gives it', () => {
    const host = hostTable();
    expect(host.size, 'the host table could not be read').toBeGreaterThan(50);
    for (const language of LANGUAGES) {
      for (const ext of language.extensions) {
        expect(host.get(ext), `${ext}: host says ${host.get(ext)}, lang-structural says ${language.id}`).toBe(language.id);
        expect(languageOfPath(`dir/file${ext.startsWith('.') ? ext : `/${ext}`}`)?.id).toBe(language.id);
      }
    }
  });

  it('has a query and an input per language', () => {
    for (const language of LANGUAGES) {
      expect(existsSync(new URL(`../queries/${language.id}.scm`, import.meta.url)), `queries/${language.id}.scm`).toBe(true);
      expect(existsSync(new URL(`../snapshots/input/${language.id}/`, import.meta.url)), `snapshots/input/${language.id}/`).toBe(true);
    }
  });
});
