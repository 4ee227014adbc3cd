// The `retrieval.synonyms` setting: its pairs, and its sync into the store with a warning instead of a failure.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { configSynonymPairs, syncConfigSynonyms } from '../../src/synonyms/config-synonyms.js';
import { tempStore } from '../store/graph-fixtures.js';

function configWith(toml: string) {
  const repo = mkdtempSync(join(tmpdir(), 'travsr-syn-config-'));
  const home = mkdtempSync(join(tmpdir(), 'travsr-syn-home-'));
  const dir = join(repo, '.travsr');
  mkdirSync(dir);
  writeFileSync(join(dir, 'config.toml'), toml);
  return loadConfig({ repoRoot: repo, env: { TRAVSR_HOME: home } });
}

describe('retrieval.synonyms', () => {
  it('gives a pair per synonym of a word, | separated', () => {
    expect(configSynonymPairs({ cfg: 'config | configuration', k8s: 'kubernetes client', empty: ' | ' })).toEqual([
      { term: 'cfg', synonym: 'config' },
      { term: 'cfg', synonym: 'configuration' },
      { term: 'k8s', synonym: 'kubernetes client' },
    ]);
  });

  it('is synced into the store from the configuration, and says where a bad pair is written', () => {
    const store = tempStore();
    expect(syncConfigSynonyms(store, configWith('[retrieval.synonyms]\ncfg = "config|configuration"\n'))).toBeUndefined();
    expect(store.listSynonyms().map((p) => `${p.term}=${p.synonym}`)).toEqual(['cfg=config', 'cfg=configuration']);
    const problem = syncConfigSynonyms(store, configWith('[retrieval.synonyms]\nsame = "same"\n'));
    expect(problem).toMatch(/retrieval\.synonyms \(repo: .*config\.toml:\d+\) not applied: .*differ/);
    expect(store.listSynonyms()).toHaveLength(2);
    store.close();
  });
});
