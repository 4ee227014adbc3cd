import { describeConfigSource, type LoadedConfig } from '../config/index.js';
import type { GraphStore, SynonymPair } from '../store/index.js';

/** The pairs of the `retrieval.synonyms` setting (`word = "synonym|another synonym"`). */
export function configSynonymPairs(map: Readonly<Record<string, string>>): SynonymPair[] {
  return Object.entries(map).flatMap(([term, list]) =>
    list
      .split('|')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((synonym) => ({ term: term.trim(), synonym })),
  );
}

/**
 * Makes the store's synonyms of origin `config` those of the `retrieval.synonyms` setting
 * (added, changed or taken out since the last command that wrote). A pair the store refuses
 * (a word with no letters or digits, or a word equal to its synonym) is reported with the
 * setting's source, and the store keeps what it had.
 * @returns a warning for the log, when the setting could not be applied.
 */
export function syncConfigSynonyms(store: GraphStore, config: LoadedConfig): string | undefined {
  const setting = config.values['retrieval.synonyms'];
  try {
    store.syncConfigSynonyms(configSynonymPairs(setting.value));
    return undefined;
  } catch (e) {
    return `retrieval.synonyms (${describeConfigSource(setting)}) not applied: ${(e as Error).message}; fix the setting (\`travsr config get retrieval.synonyms\`)`;
  }
}
