import type { RegistryIndex } from '@travsr/registry';
import { isVersion } from '@travsr/registry/semver';
import type { PluginManifest } from '@travsr/protocol';
import { readLangToml, type PluginEntry } from './lang-toml.js';
import { requiredTier, resolvePluginTools } from '../sandbox/index.js';
import { loadPluginDir } from '../plugins/plugin-dir.js';
import { enginesOfEdges, expectedPhaseBEngine } from './phase-b-engine.js';
import type { PluginsLock } from './plugins-lock.js';

/** active: serves the language; installed: registered, but another plugin serves it; available: in the registry only. */
export type LanguageState = 'active' | 'installed' | 'available';

/** One row of `travsr lang list`. */
export interface LanguageRow {
  language: string;
  plugin: string;
  /** The version this repository runs (its lock's, when that differs from lang.toml's), or the registry's latest for `available`. */
  version: string;
  /** Granted sandbox tier (installed plugins); for an available one, the tier installing it grants. */
  tier: PluginEntry['tier'] | undefined;
  /**
   * The external programs its Phase B runs (`constraints.tools`) and whether each is on this
   * machine's PATH; empty for a plugin that needs none (or whose manifest was not read).
   */
  tools: { name: string; found: boolean }[];
  /** The hosts an elevated plugin may reach through the allowlist proxy (`plugins.network`, else its manifest's). */
  network: string[] | undefined;
  state: LanguageState;
  /** The repository lock's constraint for the plugin, if it has an entry. */
  locked: string | undefined;
  /** True when the lock pins an exact version (`travsr lang pin`). */
  pinned: boolean;
  /** Phases an installed plugin runs here: its manifest's, less those whose tools are not on PATH. */
  phases: string[] | undefined;
  /** Why a phase is not run (`Phase B needs scip-go on PATH`). */
  note: string | undefined;
  /**
   * Which Phase B runs, when it does: `native` (the plugin's own resolver) or the indexer it
   * runs (`scip-go`); what the repository's last index stored when it ran one, several when a
   * plugin merged an indexer's edges into its own (`native + scip-python`).
   */
  phaseB: string | undefined;
}

/**
 * The phases an installed plugin can run on this machine: all it implements, unless tools it
 * declares (`constraints.tools`, which serve its semantic pass) are missing from PATH, which
 * leaves it at Phase A, as its `initialize` will report.
 */
export function runnablePhases(
  manifest: Pick<PluginManifest, 'phases' | 'constraints'>,
  pathEnv?: string,
): { phases: string[]; note: string | undefined } {
  const phases = manifest.phases ?? ['A'];
  const { missing } = resolvePluginTools(manifest, pathEnv);
  if (missing.length === 0 || !phases.includes('B') || !phases.includes('A')) return { phases: [...phases], note: undefined };
  return { phases: ['A'], note: `Phase B needs ${missing.join(' and ')} on PATH` };
}

/**
 * Rows for every language of every registered plugin, plus what the registry offers, sorted by
 * language then state. `indexed` is what the repository's index stored per language
 * (`{ language → { provenance → edges } }` of its Phase B edges, `GraphStore.phaseBProvenance`):
 * a row says the Phase B that produced them, else the one its plugin is expected to run.
 */
export async function languageRows(
  index: RegistryIndex | undefined,
  lock: PluginsLock,
  indexed: Readonly<Record<string, Readonly<Record<string, number>>>> = {},
  /** Manifests of registry plugins not installed, by id (their latest version's), for their tier and tools. */
  available: Readonly<Record<string, PluginManifest>> = {},
  /** `plugins.network`: plugin id → the hosts it may reach instead of its manifest's. */
  networkOverride: Readonly<Record<string, string>> = {},
): Promise<LanguageRow[]> {
  const reg = readLangToml();
  const rows: LanguageRow[] = [];
  const seen = new Set<string>();
  const lockOf = (id: string) => ({ locked: lock[id]?.constraint, pinned: lock[id] !== undefined && isVersion(lock[id].constraint) });
  for (const [id, p] of Object.entries(reg.plugins)) {
    let languages: string[];
    let phases: { phases: string[] | undefined; note: string | undefined } = { phases: undefined, note: undefined };
    let expected: string | undefined;
    let manifest: PluginManifest | undefined;
    try {
      manifest = (await loadPluginDir(p.dir)).manifest;
      languages = manifest.languages;
      phases = runnablePhases(manifest);
      expected = expectedPhaseBEngine(manifest);
    } catch {
      languages = Object.entries(reg.languages)
        .filter(([, l]) => l.plugin === id)
        .map(([lang]) => lang);
    }
    for (const language of languages) {
      seen.add(`${language}\0${id}`);
      const state: LanguageState = reg.languages[language]?.plugin === id ? 'active' : 'installed';
      // The repository's lock chooses the version `travsr index` runs here (see registeredPlugins).
      const locked = lock[id]?.version;
      const version = locked !== undefined && locked !== p.version ? locked : p.version;
      const note = version !== p.version ? [phases.note, `lang.toml registers ${p.version}`].filter(Boolean).join('; ') : phases.note;
      const ran = state === 'active' ? enginesOfEdges(indexed[language], manifest) : [];
      const phaseB = phases.phases?.includes('B') ? (ran.length > 0 ? ran.join(' + ') : expected) : undefined;
      rows.push({
        language,
        plugin: id,
        version,
        tier: p.tier,
        state,
        ...lockOf(id),
        phases: phases.phases,
        note,
        phaseB,
        ...toolsAndNetwork(manifest, networkOverride[id]),
      });
    }
  }
  for (const [id, e] of Object.entries(index?.plugins ?? {})) {
    for (const language of e.languages) {
      if (seen.has(`${language}\0${id}`)) continue;
      const manifest = available[id];
      const missing = manifest ? resolvePluginTools(manifest).missing : [];
      rows.push({
        language,
        plugin: id,
        version: e.latest,
        tier: manifest ? requiredTier(manifest) : undefined,
        state: 'available',
        ...lockOf(id),
        phases: undefined,
        note: missing.length > 0 && (manifest?.phases ?? []).includes('B') ? `Phase B needs ${missing.join(' and ')} on PATH` : undefined,
        phaseB: manifest ? expectedPhaseBEngine(manifest) : undefined,
        ...toolsAndNetwork(manifest, networkOverride[id]),
      });
    }
  }
  const order: Record<LanguageState, number> = { active: 0, installed: 1, available: 2 };
  return rows.sort((a, b) => a.language.localeCompare(b.language) || order[a.state] - order[b.state] || a.plugin.localeCompare(b.plugin));
}

/** The tools a manifest's Phase B runs, each found on PATH or not, and its allowlist in force. */
function toolsAndNetwork(manifest: PluginManifest | undefined, override: string | undefined): Pick<LanguageRow, 'tools' | 'network'> {
  if (!manifest) return { tools: [], network: undefined };
  const { found } = resolvePluginTools(manifest);
  const tools = (manifest.constraints.tools ?? []).map((name) => ({ name, found: found.some((t) => t.name === name) }));
  const net = manifest.constraints.network;
  const replaced = (override ?? '').split(/\s+/).filter((h) => h !== '');
  return { tools, network: net === false ? undefined : replaced.length > 0 ? replaced : [...net.allow] };
}
