import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileRow, GraphStore } from '../store/index.js';
import type { IndexMode } from './indexer.js';
import type { IndexSummary } from './index-summary.js';
import type { TreeClaims } from './tree-claims.js';
import { hashFileSync, LoopTurns } from './walk/index.js';

/** A file to analyze in this run. */
export interface Job {
  path: string;
  language: string;
  sha256: string;
  lines: number;
}

/** What an index run will change: files to analyze, files to remove. */
export interface ChangePlan {
  /** Changed files and their dependents, by path. */
  jobs: Map<string, Job>;
  /** Stored files that are gone from the tree (or from what plugins claim). */
  toRemove: Set<string>;
  /** Dependents re-analyzed only for their edges: their text (and so its index) is what is stored. */
  textUnchanged: Set<string>;
  /** The files table as it was before this run. */
  stored: Map<string, FileRow>;
  /** Each dependent's causes: the changing files its edges point into. */
  causes: Map<string, string[]>;
  /** The stored interfaces (protocol SPEC §9.11) of the changed files that had one, before this run. */
  interfacesBefore: Map<string, Record<string, string>>;
}

/**
 * Whether `path` is a dependent read again from the text and by the plugin (`id@version`) of its
 * stored graph: its Phase A output, definitions included, is what is stored.
 */
export function rereadsStoredGraph(plan: Pick<ChangePlan, 'textUnchanged' | 'stored'>, path: string, plugin: string | undefined): boolean {
  return plan.textUnchanged.has(path) && plan.stored.get(path)?.plugin === plugin;
}

/** Inputs of {@link planChanges}. */
export interface PlanInput {
  store: GraphStore;
  repoRoot: string;
  mode: IndexMode;
  claims: TreeClaims;
  /** The files table before this run (read here when not given). */
  stored?: Map<string, FileRow>;
  /** Files an interrupted run left pending, or whose Phase B the last run put off: analyzed again whatever their hash. */
  pendingBefore: ReadonlySet<string>;
  summary: IndexSummary;
  /** A file of this plugin will be analyzed (the run may start the plugin now). */
  onWork?: (pluginId: string, path: string) => void;
  onHashed?: (done: number, total: number) => void;
  /** The running version of each plugin, `id` → `id@version`: a file another version stored is analyzed again. */
  pluginLabels?: ReadonlyMap<string, string>;
}

/**
 * Steps 2 and 3 of an index run. What changed: a full run hashes every claimed file against the
 * store, an incremental run the files the commit changed (a file whose text is unchanged but
 * which another version of its plugin stored counts as changed); files no longer claimed are removed,
 * newly skipped ones are recorded (which tombstones their graph). Then the dependents: files whose
 * edges point into what changes are analyzed again (a full run finds changed files by hash, and
 * their dependents are just as stale).
 */
export async function planChanges(input: PlanInput): Promise<ChangePlan> {
  const { store, repoRoot, mode, summary, pendingBefore } = input;
  const { claimed, skipped } = input.claims;
  const stored = input.stored ?? new Map(store.listFiles().map((f) => [f.path, f]));
  let candidates: string[];
  const toRemove = new Set<string>();
  if (mode.kind === 'full') {
    candidates = [...claimed.keys()];
    for (const path of stored.keys()) if (!claimed.has(path)) toRemove.add(path);
  } else {
    candidates = mode.changed.filter((p) => claimed.has(p));
    for (const p of [...mode.deleted, ...mode.changed]) if (!claimed.has(p) && stored.has(p)) toRemove.add(p);
  }
  const rebuild = mode.kind === 'full' && mode.rebuild === true;
  const jobs = new Map<string, Job>();
  let hashed = 0;
  const turns = new LoopTurns();
  for (const path of candidates) {
    await turns.maybe();
    const c = claimed.get(path)!;
    try {
      const h = hashFileSync(join(repoRoot, path));
      const prev = stored.get(path);
      const sameText = !rebuild && prev && prev.sha256 === h.sha256 && prev.status === 'ok' && !pendingBefore.has(path);
      // Stored by another version of its plugin (upgraded, pinned back): what it finds may differ.
      const otherPlugin = sameText && input.pluginLabels !== undefined && prev.plugin !== input.pluginLabels.get(c.plugin);
      if (sameText && !otherPlugin) summary.unchanged++;
      else {
        if (otherPlugin) summary.pluginChanged = (summary.pluginChanged ?? 0) + 1;
        jobs.set(path, { path, language: c.language, sha256: h.sha256, lines: h.lines });
        input.onWork?.(c.plugin, path);
      }
    } catch (e) {
      skipped.set(path, { reason: 'unreadable', detail: (e as Error).message });
      summary.skipped.unreadable = (summary.skipped.unreadable ?? 0) + 1;
    }
    input.onHashed?.(++hashed, candidates.length);
  }
  // markSkipped also tombstones whatever the file had in the graph.
  for (const [path, s] of skipped) store.markSkipped(path, '', `${s.reason}: ${s.detail}`);

  const textUnchanged = new Set<string>();
  let causes = new Map<string, string[]>();
  let interfacesBefore = new Map<string, Record<string, string>>();
  if (!rebuild) {
    const changing = [...jobs.keys(), ...toRemove, ...[...skipped.keys()].filter((p) => stored.get(p)?.status === 'ok')];
    causes = store.dependentsWithCauses(changing);
    interfacesBefore = store.interfacesOf([...jobs.keys()]);
    for (const dep of causes.keys()) {
      if (jobs.has(dep) || !claimed.has(dep) || toRemove.has(dep) || skipped.has(dep)) continue;
      const prev = stored.get(dep);
      if (!prev) continue;
      // Gone from the working tree since it was stored (a deletion not committed yet): nothing to
      // analyze. A full run's walk only claims what is there.
      if (mode.kind === 'incremental' && !statSync(join(repoRoot, dep), { throwIfNoEntry: false })?.isFile()) continue;
      jobs.set(dep, { path: dep, language: claimed.get(dep)!.language, sha256: prev.sha256, lines: prev.lines ?? 0 });
      summary.dependents++;
      if (prev.status === 'ok') textUnchanged.add(dep);
    }
  }
  return { jobs, toRemove, textUnchanged, stored, causes, interfacesBefore };
}

/** Runs `fn` over `items`, at most `limit` at once. */
export async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
