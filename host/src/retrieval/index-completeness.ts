import type { GraphStore } from '../store/index.js';

/** How complete the graph is for one language: what an answer built on it can miss. */
export interface LanguageCompleteness {
  language: string;
  /** Files of the language the indexer saw. */
  files: number;
  analyzed: number;
  failed: number;
  /** Analyzed files whose parse left errors (their graph may lack definitions). */
  parseErrors: number;
  /**
   * `A`: structural only (name-matched calls, low confidence); `A+B`: compiler-resolved;
   * `mixed`: some files resolved, some not.
   */
  phase: 'A' | 'A+B' | 'mixed';
}

/** What every answer says about the graph it came from. */
export interface Completeness {
  /** False while an index run is in progress or was interrupted. */
  complete: boolean;
  languages: LanguageCompleteness[];
  failedFiles: number;
  skippedFiles: number;
  /** One line for a reader: what a missing edge may mean. */
  summary: string;
}

// Configuration and data formats: no calls to resolve, so no Phase B to miss.
const DATA_LANGUAGES = new Set(['json', 'yaml', 'toml', 'xml']);

/** Reads the completeness of `store`'s graph (one pass over the files table). */
export function indexCompleteness(store: GraphStore): Completeness {
  const byLanguage = new Map<string, LanguageCompleteness & { phaseB: number }>();
  let failedFiles = 0;
  let skippedFiles = 0;
  for (const f of store.listFiles()) {
    if (f.status === 'skipped') {
      skippedFiles++;
      continue;
    }
    if (f.status === 'failed') failedFiles++;
    const language = f.language ?? 'unknown';
    let l = byLanguage.get(language);
    if (!l) byLanguage.set(language, (l = { language, files: 0, analyzed: 0, failed: 0, parseErrors: 0, phase: 'A', phaseB: 0 }));
    l.files++;
    if (f.status === 'failed') l.failed++;
    else {
      l.analyzed++;
      if (f.phase === 'B') l.phaseB++;
      if (f.diagnostics.some((d) => d.code === 'PARSE_ERRORS')) l.parseErrors++;
    }
  }
  const phaseOf = (phaseB: number, analyzed: number): LanguageCompleteness['phase'] =>
    phaseB === 0 ? 'A' : phaseB === analyzed ? 'A+B' : 'mixed';
  const languages: LanguageCompleteness[] = [...byLanguage.values()]
    .map(({ phaseB, ...l }) => ({ ...l, phase: phaseOf(phaseB, l.analyzed) }))
    .sort((a, b) => b.files - a.files || (a.language < b.language ? -1 : 1));
  const complete = store.getMeta('index_state') === 'complete';
  const parts: string[] = [];
  if (!complete) parts.push('the index is incomplete (a run is in progress or was interrupted)');
  const structural = languages.filter((l) => l.phase !== 'A+B' && !DATA_LANGUAGES.has(l.language)).map((l) => l.language);
  if (structural.length > 0)
    parts.push(`${structural.join(', ')}: structural (Phase A) only — calls are name-matched, so a missing caller is not proof of none`);
  if (failedFiles > 0) parts.push(`${failedFiles} file(s) failed to analyze`);
  const parsed = languages.filter((l) => l.parseErrors > 0);
  if (parsed.length > 0) parts.push(`parse errors in ${parsed.map((l) => `${l.parseErrors} ${l.language}`).join(', ')} file(s)`);
  return {
    complete,
    languages,
    failedFiles,
    skippedFiles,
    summary: parts.length === 0 ? 'complete: every file analyzed with resolved (Phase B) edges' : parts.join('; '),
  };
}
