/** What one index run did, for the CLI summary, `--json` and the trace. */
export interface IndexSummary {
  mode: 'full' | 'incremental';
  repoRoot: string;
  /** Files claimed by a plugin and seen in the tree. */
  filesSeen: number;
  analyzed: number;
  unchanged: number;
  failed: number;
  removed: number;
  /** Files skipped by the walker, by reason (too-large, binary, generated, …). */
  skipped: Record<string, number>;
  /** Files no registered plugin claims, by extension: the languages that stay unanalyzed. */
  unclaimed: Record<string, number>;
  /** Files re-analyzed because their edges point into a changed file. */
  dependents: number;
  /**
   * Dependents left as they were: every file they depend on kept the interface they read
   * (protocol SPEC §9.11), so their analysis could not change.
   */
  dependentsUnaffected: number;
  /** Unchanged files analyzed again because another version of their plugin stored them (an upgrade, a pin). */
  pluginChanged?: number;
  nodes: number;
  edges: number;
  refs: { edges: number; ambiguous: number; unresolved: number };
  plugins: PluginSummary[];
  /** Languages claimed by several plugins: which one was used and the rule that chose it. */
  choices: { language: string; plugin: string; candidates: string[]; rule: string }[];
  /** Failed files with the reason, at most 50. */
  failures: { path: string; plugin: string; reason: string }[];
  durationMs: number;
  commit?: string;
  /**
   * Present when this run completed runs that never finished (a process killed mid-run): their
   * modes and start times, and how many files they had left pending (analyzed again here).
   */
  resumed?: { runs: { mode: string; startedAt: string }[]; pendingFiles: number };
  /**
   * Files whose later phase (Phase B) this run put off when asked to (`deferLaterPhases`): they
   * keep their first phase's graph until a run analyzes them again.
   */
  deferred?: string[];
}

/** The summary of a run that has done nothing yet: every count zero, every list empty. */
export function emptySummary(mode: IndexSummary['mode'], repoRoot: string): IndexSummary {
  return {
    mode,
    repoRoot,
    filesSeen: 0,
    analyzed: 0,
    unchanged: 0,
    failed: 0,
    removed: 0,
    skipped: {},
    unclaimed: {},
    dependents: 0,
    dependentsUnaffected: 0,
    nodes: 0,
    edges: 0,
    refs: { edges: 0, ambiguous: 0, unresolved: 0 },
    plugins: [],
    choices: [],
    failures: [],
    durationMs: 0,
  };
}

/** One plugin's part of an index run. */
export interface PluginSummary {
  id: string;
  version: string;
  languages: string[];
  tier: string;
  files: number;
  analyzed: number;
  failed: number;
  /** Phases run (those the plugin implements, semantic analysis allows and its session could run). */
  phases: string[];
  /** Phases the plugin implements but could not run, and why (a missing tool). */
  unavailable?: { phase: string; reason: string }[];
  status: 'ok' | 'partial' | 'failed' | 'idle';
  error?: string;
  /** Files whose later phase was put off (`IndexSummary.deferred`). */
  deferred?: number;
}

/** A human summary, a few lines. */
export function formatSummary(s: IndexSummary): string {
  const lines: string[] = [];
  const secs = (s.durationMs / 1000).toFixed(2);
  lines.push(
    `${s.mode === 'full' ? 'indexed' : 'reindexed'} ${s.repoRoot} in ${secs} s: ${s.analyzed} analyzed, ${s.unchanged} unchanged, ${s.failed} failed, ${s.removed} removed${s.dependents ? `, ${s.dependents} dependents` : ''}${s.dependentsUnaffected ? `, ${s.dependentsUnaffected} dependents unaffected` : ''}${s.pluginChanged ? `, ${s.pluginChanged} analyzed again by another plugin version` : ''}`,
  );
  if (s.resumed) {
    const first = s.resumed.runs[0];
    lines.push(
      `completed an interrupted index run${first ? ` (${first.mode}, started ${first.startedAt})` : ''}: its ${s.resumed.pendingFiles} unfinished files were analyzed again and every name match redone`,
    );
  }
  if (s.deferred && s.deferred.length > 0)
    lines.push(`Phase B put off for ${s.deferred.length} files (newer edits came): they keep their Phase A graph until the next run`);
  lines.push(
    `graph: ${s.nodes} nodes, ${s.edges} edges (name-matched: ${s.refs.edges} edges, ${s.refs.ambiguous} ambiguous refs left out, ${s.refs.unresolved} unresolved)`,
  );
  for (const p of s.plugins) {
    lines.push(
      `  ${p.id}@${p.version} [${p.languages.join(', ')}] tier ${p.tier}, phase ${p.phases.join('+')}: ${p.analyzed}/${p.files} files${p.failed ? `, ${p.failed} failed` : ''}${p.error ? ` — ${p.error}` : ''}`,
    );
    for (const u of p.unavailable ?? []) lines.push(`    phase ${u.phase} not run: ${u.reason}`);
  }
  for (const c of s.choices) lines.push(`  ${c.language}: ${c.plugin} chosen among ${c.candidates.join(', ')} (${c.rule})`);
  const skipped = Object.entries(s.skipped);
  if (skipped.length) lines.push(`skipped: ${skipped.map(([r, n]) => `${n} ${r}`).join(', ')}`);
  const unclaimed = Object.entries(s.unclaimed).sort((a, b) => b[1] - a[1]);
  if (unclaimed.length) {
    lines.push(
      `not analyzed (no plugin registered): ${unclaimed
        .slice(0, 8)
        .map(([e, n]) => `${n} ${e}`)
        .join(', ')}${unclaimed.length > 8 ? ', …' : ''}`,
    );
  }
  lines.push(...failedFileLines(s.failures, s.failed, 'travsr status --json lists them'));
  return lines.join('\n');
}

/** Failed files shown in a summary: the first 10, or groups of 10. */
const SHOWN_FAILURES = 10;
/** Paths named in one line of files that failed for the same reason. */
const PATHS_PER_GROUP = 5;

/**
 * Failed files for a person to read, files that failed for the same reason together (a plugin
 * that cannot start fails every file it was given with one message): one line per reason,
 * naming the first paths (and the plugin, when known), at most {@link SHOWN_FAILURES} lines,
 * then how many more of `total` failed and where the whole list is (`listedBy`).
 */
export function failedFileLines(
  failures: readonly { path: string; reason: string; plugin?: string }[],
  total: number,
  listedBy: string,
): string[] {
  const groups = new Map<string, { plugin: string | undefined; reason: string; paths: string[] }>();
  for (const f of failures) {
    const key = `${f.plugin ?? ''}\0${f.reason}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { plugin: f.plugin, reason: f.reason, paths: [] }));
    g.paths.push(f.path);
  }
  const lines: string[] = [];
  let shown = 0;
  for (const g of [...groups.values()].slice(0, SHOWN_FAILURES)) {
    const named = g.paths.slice(0, PATHS_PER_GROUP);
    const more = g.paths.length - named.length;
    const which = g.paths.length === 1 ? named[0]! : `${g.paths.length} files, ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    lines.push(`  failed ${which}${g.plugin ? ` (${g.plugin})` : ''}: ${g.reason}`);
    shown += g.paths.length;
  }
  if (total > shown) lines.push(`  … ${total - shown} more failed files (${listedBy})`);
  return lines;
}
