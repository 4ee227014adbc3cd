import { isVersion, type RegistryIndex } from '@travsr/registry';
import { readLangToml, type PluginEntry } from '../plugins/lang-toml.js';
import { loadPluginDir } from '../plugins/plugin-dir.js';
import type { PluginsLock } from './plugins-lock.js';

/** active: serves the language; installed: registered, but another plugin serves it; available: in the registry only. */
export type LanguageState = 'active' | 'installed' | 'available';

/** One row of `travsr lang list`. */
export interface LanguageRow {
  language: string;
  plugin: string;
  /** Installed version, or the registry's latest for `available`. */
  version: string;
  /** Granted sandbox tier (installed plugins only). */
  tier: PluginEntry['tier'] | undefined;
  state: LanguageState;
  /** The repository lock's constraint for the plugin, if it has an entry. */
  locked: string | undefined;
  /** True when the lock pins an exact version (`travsr lang pin`). */
  pinned: boolean;
}

/** Rows for every language of every registered plugin, plus what the registry offers, sorted by language then state. */
export async function languageRows(index: RegistryIndex | undefined, lock: PluginsLock): Promise<LanguageRow[]> {
  const reg = readLangToml();
  const rows: LanguageRow[] = [];
  const seen = new Set<string>();
  const lockOf = (id: string) => ({ locked: lock[id]?.constraint, pinned: lock[id] !== undefined && isVersion(lock[id].constraint) });
  for (const [id, p] of Object.entries(reg.plugins)) {
    let languages: string[];
    try {
      languages = (await loadPluginDir(p.dir)).manifest.languages;
    } catch {
      languages = Object.entries(reg.languages)
        .filter(([, l]) => l.plugin === id)
        .map(([lang]) => lang);
    }
    for (const language of languages) {
      seen.add(`${language}\0${id}`);
      const state: LanguageState = reg.languages[language]?.plugin === id ? 'active' : 'installed';
      rows.push({ language, plugin: id, version: p.version, tier: p.tier, state, ...lockOf(id) });
    }
  }
  for (const [id, e] of Object.entries(index?.plugins ?? {})) {
    for (const language of e.languages) {
      if (seen.has(`${language}\0${id}`)) continue;
      rows.push({ language, plugin: id, version: e.latest, tier: undefined, state: 'available', ...lockOf(id) });
    }
  }
  const order: Record<LanguageState, number> = { active: 0, installed: 1, available: 2 };
  return rows.sort((a, b) => a.language.localeCompare(b.language) || order[a.state] - order[b.state] || a.plugin.localeCompare(b.plugin));
}
