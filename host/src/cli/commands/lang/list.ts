import { TravsrCommand } from '../../base-command.js';
import { langContext, withRegistry } from '../../../catalog/install-plugin.js';
import { languageRows } from '../../../catalog/list-languages.js';
import { readPluginsLock } from '../../../catalog/plugins-lock.js';
import type { RegistryIndex } from '@travsr/registry';
import type { PluginManifest } from '@travsr/protocol';
import { readLangToml } from '../../../catalog/lang-toml.js';
import { loadConfig } from '../../../config/index.js';
import { jsonFlag, repoFlag, ignoredKeyWarnings } from '../../shared/lang-flags.js';
import { existsSync } from 'node:fs';
import { GraphStore } from '../../../store/index.js';

export default class LangList extends TravsrCommand {
  static override summary = 'List languages and their plugins: active, installed or available in the registry';
  static override description =
    "active: the plugin that serves the language, with the phases it runs on this machine (a plugin whose semantic pass needs an external tool, such as lang-go and scip-go, is active at Phase A until the tool is on PATH) and which Phase B that is: native (the plugin resolves the program itself, as lang-python and lang-typescript do) or the indexer it runs (scip-go); in an indexed repository, what its last index ran; installed: registered but another plugin serves it; available: in the registry (`registry.url`, default the built-in one) but not installed. LOCK shows the repository lock constraint; pinned ones are exact versions. TIER is the sandbox tier granted (for an available plugin, the one installing it grants); TOOLS says whether each external program its Phase B runs is on PATH; --json also lists the hosts an elevated plugin may reach (plugins.network, else its manifest's).";
  static override examples = ['<%= config.bin %> lang list', '<%= config.bin %> lang list --json'];
  static override flags = { repo: repoFlag, json: jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(LangList);
    const ctx = await langContext(flags.repo, false);
    for (const line of ignoredKeyWarnings(ctx)) this.logToStderr(line);
    let index: RegistryIndex | undefined;
    let registryProblem: string | undefined;
    let registry: string | undefined;
    const available: Record<string, PluginManifest> = {};
    try {
      index = await withRegistry(ctx, async (source, client) => {
        registry = source.name;
        const snapshot = await client.snapshot();
        // The manifest of each plugin not installed, for the tier installing it grants and the tools its Phase B needs.
        const installed = new Set(Object.keys(readLangToml().plugins));
        await Promise.all(
          Object.entries(snapshot.index.plugins)
            .filter(([id]) => !installed.has(id))
            .map(async ([id, e]) => {
              try {
                available[id] = (await client.versionDocument(id, e.latest)).manifest;
              } catch {
                // shown without them
              }
            }),
        );
        return snapshot.index;
      });
    } catch (e) {
      registryProblem = `${(e as { code?: string }).code ?? 'ERROR'}: ${(e as Error).message}`;
    }
    const lock = ctx.lockPath ? readPluginsLock(ctx.lockPath) : {};
    const rows = await languageRows(
      index,
      lock,
      ctx.repoRoot === undefined ? {} : indexedPhaseB(ctx.repoRoot),
      available,
      networkOverride(ctx.repoRoot),
    );
    if (flags.json) {
      this.log(
        JSON.stringify(
          { registry: registry ?? null, registryProblem: registryProblem ?? null, lockFile: ctx.lockPath ?? null, languages: rows },
          null,
          2,
        ),
      );
      return;
    }
    if (registryProblem) this.logToStderr(`warning: registry not read, showing installed plugins only (${registryProblem})`);
    const table = [
      ['LANGUAGE', 'PLUGIN', 'VERSION', 'TIER', 'STATE', 'LOCK', 'TOOLS'],
      ...rows.map((r) => [
        r.language,
        r.plugin,
        r.version,
        r.tier ?? '-',
        r.state === 'active' && r.phases
          ? `active at Phase ${r.phases.join('+')}${r.note ? ` (${r.note})` : r.phaseB ? ` (${r.phaseB})` : ''}`
          : r.state === 'available' && r.note
            ? `available (${r.note})`
            : r.state,
        r.locked === undefined ? '-' : r.pinned ? `pinned ${r.locked}` : r.locked,
        r.tools.length === 0 ? '-' : r.tools.map((t) => `${t.name} ${t.found ? 'found' : 'missing'}`).join(', '),
      ]),
    ];
    const widths = (table[0] ?? []).map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
    for (const row of table)
      this.log(
        row
          .map((c, i) => c.padEnd(widths[i] ?? 0))
          .join('  ')
          .trimEnd(),
      );
  }
}

/**
 * What produced the repository's Phase B edges, per language (`{ language → { provenance →
 * edges } }`). Empty when it has no index yet or the index cannot be read: lang list then says
 * what each plugin is expected to run.
 */
function indexedPhaseB(repoRoot: string): Record<string, Record<string, number>> {
  const db = GraphStore.pathForRepo(repoRoot);
  if (!existsSync(db)) return {};
  try {
    const store = GraphStore.open(db, { readonly: true });
    try {
      return store.phaseBProvenance();
    } finally {
      store.close();
    }
  } catch {
    return {};
  }
}

/** `plugins.network` as the index would read it here; nothing when the configuration cannot be read (index reports that). */
function networkOverride(repoRoot: string | undefined): Record<string, string> {
  try {
    return loadConfig(repoRoot === undefined ? {} : { repoRoot, cwd: process.cwd() }).values['plugins.network'].value;
  } catch {
    return {};
  }
}
