import type { IndexSummary } from './index-summary.js';
import { walkRepository, type LanguageMap } from './walk/index.js';

/** What the walk found: the files a plugin claims, and the claimed paths it left out, with why. */
export interface TreeClaims {
  claimed: Map<string, { language: string; plugin: string }>;
  skipped: Map<string, { reason: string; detail: string }>;
}

/** The walk settings of an index run. */
export interface ClaimOptions {
  maxFileBytes: number;
  exclude: readonly string[];
  followSymlinks: boolean;
  /** An incremental run's changed files: only these are opened (see `WalkOptions.inspect`). */
  changed?: ReadonlySet<string> | undefined;
}

/**
 * Step 1 of an index run: walks the tree and says which plugin claims each file. Counts what
 * no plugin claims (`summary.unclaimed`, by extension), what is left out (`summary.skipped`),
 * the language choices the map made, and `filesSeen`.
 */
export async function claimTree(
  repoRoot: string,
  languageMap: LanguageMap,
  options: ClaimOptions,
  summary: IndexSummary,
): Promise<TreeClaims> {
  const claimed = new Map<string, { language: string; plugin: string }>();
  const skipped = new Map<string, { reason: string; detail: string }>();
  const changed = options.changed;
  for await (const entry of walkRepository(repoRoot, {
    maxFileBytes: options.maxFileBytes,
    exclude: options.exclude,
    followSymlinks: options.followSymlinks,
    languageMap,
    reportUnclaimed: true,
    ...(changed ? { inspect: (path: string) => changed.has(path) } : {}),
  })) {
    if (entry.kind === 'file') {
      const m = entry.match ?? languageMap.match(entry.path);
      if (m) {
        claimed.set(entry.path, { language: m.language, plugin: m.plugin });
        if (m.candidates.length > 1 && !summary.choices.some((c) => c.language === m.language && c.plugin === m.plugin)) {
          summary.choices.push({ language: m.language, plugin: m.plugin, candidates: [...m.candidates], rule: m.rule });
        }
      }
    } else if (entry.reason === 'no-plugin') {
      const ext = extensionOf(entry.path);
      summary.unclaimed[ext] = (summary.unclaimed[ext] ?? 0) + 1;
    } else if (languageMap.match(entry.path)) {
      skipped.set(entry.path, { reason: entry.reason, detail: entry.detail });
      summary.skipped[entry.reason] = (summary.skipped[entry.reason] ?? 0) + 1;
    }
  }
  summary.filesSeen = claimed.size;
  return { claimed, skipped };
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : name;
}
