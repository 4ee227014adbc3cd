import { hookStatus } from '../git/index.js';
import { failedFileLines } from '../indexer/index-summary.js';
import { registeredPlugins } from '../catalog/registered-plugins.js';
import { errorCode } from '@travsr/protocol';
import { GraphStore, StoreErrorCode } from '../store/index.js';
import { openWorkspace } from '../workspace/workspace.js';
import { indexRunState } from '../workspace/index-run-state.js';
import { runnablePhases } from '../catalog/list-languages.js';
import { enginesOfProvenances, expectedPhaseBEngine } from '../catalog/phase-b-engine.js';

/** What `travsr status` was asked for. */
export interface StatusRequest {
  /** The repository (default: the current directory). */
  path: string;
  json: boolean;
}

/**
 * The body of `travsr status`, shared by the oclif command and the lean entry (`lean-entry.ts`):
 * the state of the index — schema version, counts, languages with the phases that ran and the
 * plugin serving each, plugins, the hook, failed files — as lines or as JSON through `out.log`.
 *
 * @example
 * ```ts
 * await showStatus({ path: '.', json: false }, { log: console.log });
 * ```
 */
export async function showStatus(req: StatusRequest, out: { log(line: string): void }): Promise<void> {
  // Read-only: status writes nothing, and a read-only connection leaves the write-ahead log to
  // the next writer instead of checkpointing it on close. A store that needs migrating first is
  // opened for writing.
  const ws = await openWorkspace(req.path, { readonly: true }).catch((e: unknown) => {
    if (errorCode(e) === StoreErrorCode.Outdated) return openWorkspace(req.path);
    throw e;
  });
  try {
    const store = ws.store;
    // git is asked about the hook while the store is read.
    const hookAsked = ws.git ? hookStatus(ws.root) : undefined;
    hookAsked?.catch(() => undefined);
    const counts = store.counts();
    const { failed, skipped, byLanguage } = store.fileSummary();
    // Grammars lag behind languages: say per language how many files parsed with errors.
    const parseErrors: Record<string, { files: number; of: number }> = {};
    // Which phases ran: a file's stored phase is its last one (B after A).
    const phaseBFiles: Record<string, { phaseB: number; of: number }> = {};
    for (const [language, f] of Object.entries(byLanguage)) {
      parseErrors[language] = { files: f.parseErrors, of: f.analyzed };
      phaseBFiles[language] = { phaseB: f.phaseB, of: f.analyzed };
    }
    const provenances = store.phaseBProvenances();
    const { plugins, problems } = await registeredPlugins(ws.config.values['plugins.dirs'].value, { repoRoot: ws.root });
    // The plugin serving a language: the preferred one when several could.
    const servingPlugin = (language: string) => {
      const preferred = ws.settings.prefer[language];
      const p =
        plugins.find((x) => x.plugin.manifest.id === preferred && x.plugin.manifest.languages.includes(language)) ??
        plugins.find((x) => x.plugin.manifest.languages.includes(language));
      return p && { id: p.plugin.manifest.id, version: p.plugin.manifest.version, manifest: p.plugin.manifest };
    };
    const hook = await hookAsked;
    const run = indexRunState(ws.root, store);
    const status = {
      root: ws.root,
      store: store.path,
      corpus: ws.settings.corpus,
      schemaVersion: store.schemaVersion(),
      latestSchemaVersion: GraphStore.LATEST_SCHEMA_VERSION,
      lastIndexedCommit: store.getMeta('last_indexed_commit') ?? null,
      lastIndexedAt: store.getMeta('last_indexed_at') ?? null,
      complete: run.state === 'complete',
      interrupted: run.state === 'interrupted',
      indexRun: run,
      counts,
      plugins: plugins.map((p) => {
        // The phases it can run on this machine (a semantic pass whose tool is not on PATH is not).
        const runnable = runnablePhases(p.plugin.manifest);
        return {
          id: p.plugin.manifest.id,
          version: p.plugin.manifest.version,
          languages: p.plugin.manifest.languages,
          phases: runnable.phases,
          ...(runnable.note ? { phasesNote: runnable.note } : {}),
          tier: p.tier,
          source: p.source,
        };
      }),
      languages: Object.keys(counts.byLanguage)
        .sort()
        .map((language) => {
          const p = servingPlugin(language);
          const ran = phaseBFiles[language] ?? { phaseB: 0, of: 0 };
          const phaseB = ran.phaseB === 0 ? [] : enginesOfProvenances(provenances[language] ?? [], p?.manifest);
          const expected = p ? expectedPhaseBEngine(p.manifest) : undefined;
          return {
            language,
            plugin: p ? `${p.id}@${p.version}` : null,
            phases: ran.phaseB === 0 ? 'A' : ran.phaseB === ran.of ? 'A+B' : 'mixed',
            filesAtPhaseB: ran.phaseB,
            analyzedFiles: ran.of,
            // Files at Phase B with no resolved edge yet still ran the plugin's Phase B: the expected one.
            phaseB: ran.phaseB > 0 && phaseB.length === 0 && expected ? [expected] : phaseB,
          };
        }),
      pluginProblems: problems,
      hook: hook?.state ?? 'not a git repository',
      parseErrors,
      failed,
      skipped,
    };
    if (req.json) {
      out.log(JSON.stringify(status, null, 2));
      return;
    }
    out.log(`${status.root}  (corpus ${status.corpus})`);
    out.log(
      `  store       ${status.store}, schema v${status.schemaVersion}${status.schemaVersion < status.latestSchemaVersion ? ` (v${status.latestSchemaVersion} available)` : ''}`,
    );
    out.log(
      `  indexed     ${status.lastIndexedAt ?? 'never'}${status.lastIndexedCommit ? ` at commit ${status.lastIndexedCommit.slice(0, 12)}` : ''}${run.note ? ` — ${run.note}` : ''}`,
    );
    out.log(
      `  graph       ${counts.files} files, ${counts.nodes} nodes, ${counts.edges} edges, ${counts.refs} references, ${counts.tombstones} tombstones`,
    );
    out.log(`  hook        ${status.hook}`);
    for (const [lang, c] of Object.entries(counts.byLanguage).sort()) {
      const l = status.languages.find((x) => x.language === lang);
      const p = status.plugins.find((x) => `${x.id}@${x.version}` === l?.plugin);
      const pe = parseErrors[lang];
      out.log(
        `  ${lang.padEnd(12)}${String(c.files).padStart(6)} files ${String(c.nodes).padStart(8)} nodes  ${p ? phaseLine(l, p) : 'no plugin'}${c.failed ? `, ${c.failed} failed` : ''}${c.skipped ? `, ${c.skipped} skipped` : ''}${pe?.files ? `, ${pe.files} with parse errors (${((100 * pe.files) / pe.of).toFixed(1)}%)` : ''}`,
      );
    }
    for (const p of problems) out.log(`  ! ${p}`);
    for (const line of failedFileLines(
      failed.map((f) => ({ path: f.path, reason: f.reason ?? '' })),
      failed.length,
      '--json lists them all',
    ))
      out.log(line);
  } finally {
    ws.close();
  }
}

/**
 * The phases that ran for a language's files and by which Phase B, then its plugin:
 * `phase A+B (native; lang-python@0.1.0, standard)`, `phase A+B in 3 of 5 files (scip-go; …)`,
 * `phase A (lang-go@0.1.0, standard; Phase B needs scip-go and go on PATH)`.
 */
function phaseLine(
  l: { phases: string; filesAtPhaseB: number; analyzedFiles: number; phaseB: string[] } | undefined,
  p: { id: string; version: string; tier: string; phasesNote?: string },
): string {
  const plugin = `${p.id}@${p.version}, ${p.tier}`;
  if (l === undefined || l.phases === 'A') return `phase A (${plugin}${p.phasesNote ? `; ${p.phasesNote}` : ''})`;
  const where = l.phases === 'mixed' ? ` in ${l.filesAtPhaseB} of ${l.analyzedFiles} files` : '';
  return `phase A+B${where} (${l.phaseB.length > 0 ? `${l.phaseB.join(' + ')}; ` : ''}${plugin})`;
}
