import type { IndexSummary } from './index-summary.js';
import type { FileRow } from '../store/index.js';
import { IGNORE_FILE_NAMES, walkRepository, type LanguageMap, type WalkEntry } from './walk/index.js';

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
  /**
   * With `changed`, an incremental run that need not walk the whole tree: the files it deleted
   * and the files stored before it. The walk then goes only toward the changed and deleted
   * files, and every other file stored as analyzed (or failed) that a plugin claims counts as
   * claimed, as the last walk found it. A changed or deleted ignore file walks the whole tree
   * again.
   */
  known?: { deleted: ReadonlySet<string>; stored: ReadonlyMap<string, Pick<FileRow, 'status'>> } | undefined;
  /**
   * What a walk of the tree made moments before yielded (`travsr init`'s, which found the
   * languages to register plugins for), and its language map: taken instead of walking again.
   * The walk must have had the same ignore, size and symlink settings and `reportUnclaimed`, and
   * its map must claim every file this run's map claims (so each of those was inspected); a file
   * only the listing's map claims counts as unclaimed, as this run's own walk would have said.
   */
  listing?: { entries: readonly WalkEntry[]; map: LanguageMap } | undefined;
  /** Called for each file as it is claimed (the run starts a plugin that will surely have work). */
  onClaimed?: ((path: string, plugin: string) => void) | undefined;
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
  const known = changed && options.known && !touchesIgnoreFile([...changed, ...options.known.deleted]) ? options.known : undefined;
  if (known) {
    for (const [path, row] of known.stored) {
      if (row.status === 'skipped' || changed!.has(path) || known.deleted.has(path)) continue;
      const m = languageMap.match(path);
      if (m) claimed.set(path, { language: m.language, plugin: m.plugin });
    }
  }
  const listing = options.listing;
  const entries =
    listing?.entries ??
    walkRepository(repoRoot, {
      maxFileBytes: options.maxFileBytes,
      exclude: options.exclude,
      followSymlinks: options.followSymlinks,
      languageMap,
      reportUnclaimed: true,
      ...(changed ? { inspect: (path: string) => changed.has(path) } : {}),
      // The deleted paths too: one the commit removed but the working tree still has (`git rm
      // --cached`) is claimed as a full walk would find it.
      ...(known && changed ? { only: new Set([...changed, ...known.deleted]) } : {}),
    });
  const unclaimed = (path: string) => {
    const ext = extensionOf(path);
    summary.unclaimed[ext] = (summary.unclaimed[ext] ?? 0) + 1;
  };
  for await (const entry of entries) {
    if (entry.kind === 'file') {
      // A listing's match is its own map's: this run's decides.
      const m = listing ? languageMap.match(entry.path) : (entry.match ?? languageMap.match(entry.path));
      if (!m && listing) unclaimed(entry.path);
      if (m) {
        claimed.set(entry.path, { language: m.language, plugin: m.plugin });
        options.onClaimed?.(entry.path, m.plugin);
        if (m.candidates.length > 1 && !summary.choices.some((c) => c.language === m.language && c.plugin === m.plugin)) {
          summary.choices.push({ language: m.language, plugin: m.plugin, candidates: [...m.candidates], rule: m.rule });
        }
      }
    } else if (entry.reason === 'no-plugin') {
      unclaimed(entry.path);
    } else if (languageMap.match(entry.path)) {
      skipped.set(entry.path, { reason: entry.reason, detail: entry.detail });
      summary.skipped[entry.reason] = (summary.skipped[entry.reason] ?? 0) + 1;
    } else if (listing?.map.match(entry.path)) {
      // Looked at only because the listing's map claims it: this run's walk would have said no plugin claims it.
      unclaimed(entry.path);
    }
  }
  summary.filesSeen = claimed.size;
  return { claimed, skipped };
}

/** Whether one of `paths` is an ignore file (which can change what the whole tree claims). */
function touchesIgnoreFile(paths: readonly string[]): boolean {
  return paths.some((p) => (IGNORE_FILE_NAMES as readonly string[]).includes(p.slice(p.lastIndexOf('/') + 1)));
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : name;
}
