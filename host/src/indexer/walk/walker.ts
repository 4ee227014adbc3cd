import type { Dirent } from 'node:fs';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeSystemError, systemCode, WalkError, WalkErrorCode } from './errors.js';
import { PREFIX_BYTES } from './content-checks.js';
import { inspectFile } from './file-inspection.js';
import { gitInfoExcludePath, IGNORE_FILE_NAMES, IgnoreRules, type IgnoreMatcher } from './ignore-rules.js';
import type { LanguageMap, LanguageMatch } from './language-map.js';
import { LoopTurns } from './loop-turns.js';
import { resolveLink } from './symlinks.js';
import { SkipReason, type SkippedEntry, type WalkEntry } from './walk-entry.js';

/** Files larger than this are skipped as `too-large` unless `maxFileBytes` says otherwise. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** Directories of third-party code, left out unless `includeVendored` is set. */
export const VENDORED_DIRECTORY_NAMES: readonly string[] = ['node_modules', 'vendor'];

/** Options of {@link walkRepository}. */
export interface WalkOptions {
  /** Larger files are skipped as `too-large`. Default {@link DEFAULT_MAX_FILE_BYTES} (1 MiB). */
  maxFileBytes?: number;
  /** Gitignore-style patterns relative to the root (from config); they override every ignore file. */
  exclude?: readonly string[];
  /** Follow symbolic links that stay inside the root. Default false: links are skipped as `symlink`. */
  followSymlinks?: boolean;
  /** When given, only files a plugin claims are yielded, each with its {@link LanguageMatch}. */
  languageMap?: LanguageMap;
  /** Also yield unclaimed files (`no-plugin`) and vendored directories (`vendored`) as skipped. */
  reportUnclaimed?: boolean;
  /** Also yield what ignore rules and `exclude` leave out (`ignored`), naming the rule. */
  reportIgnored?: boolean;
  /** Walk `node_modules/` and `vendor/` directories too. Default false. */
  includeVendored?: boolean;
  /**
   * Which files to inspect (open, stat, size and content checks). Default: all. A file this
   * returns false for is yielded as it is listed, without being opened and without a `size`:
   * an incremental run knows from git which files changed, and the others were inspected when
   * they were last indexed. Ignore rules and the language map apply to every file either way.
   */
  inspect?: (path: string) => boolean;
  /**
   * Walk only toward these files: the directories on the way to one of them are listed (and
   * their ignore files read, so the same rules decide), everything else is passed over and
   * only these paths are yielded. An incremental run knows which files a commit changed.
   */
  only?: ReadonlySet<string>;
  /**
   * Called with each directory the walk enters (repository-relative, '' for the root; its
   * absolute path): the directories the ignore rules leave in, which a file watcher watches.
   */
  onDirectory?: (path: string, absPath: string) => void;
}

type Entry =
  | { type: 'directory'; key: string; name: string; path: string; absPath: string; realPath: string }
  | { type: 'file'; key: string; path: string; absPath: string; throughLink: boolean }
  | {
      type: 'skip';
      key: string;
      entry: SkippedEntry;
      /** Reported even when ignored or unclaimed (an unreadable ignore file changes what is walked). */
      always: boolean;
      /** Whether the language map decides if it is reported (a link to a directory has no language). */
      claimable: boolean;
    };

interface Frame {
  path: string;
  absPath: string;
  realPath: string;
  rules: IgnoreRules;
  matcher: IgnoreMatcher;
  entries: Entry[];
  next: number;
}

interface Settings {
  maxFileBytes: number;
  exclude: readonly string[];
  followSymlinks: boolean;
  languageMap: LanguageMap | undefined;
  reportUnclaimed: boolean;
  reportIgnored: boolean;
  includeVendored: boolean;
  inspect: ((path: string) => boolean) | undefined;
  /** With `only`: the paths yielded, and the directories that lead to them. */
  only: { files: ReadonlySet<string>; directories: ReadonlySet<string> } | undefined;
  onDirectory: ((path: string, absPath: string) => void) | undefined;
}

/**
 * Walks a repository and yields every file to index, and every path left out for a reason
 * worth telling (see {@link SkipReason}), sorted by path (UTF-16 code units; a directory's
 * contents come where `dir/…` sorts). Deterministic: the same tree gives the same sequence.
 *
 * Never entered: `.git` (at any depth) and `.travsr/`. Ignore rules: every `.gitignore`
 * and `.travsrignore` in the tree (each relative to its directory, with negations and
 * directory-only patterns), `.git/info/exclude`, and `exclude`; see {@link IgnoreRules} for
 * their precedence. The user's global git excludes file is not read, so every machine
 * indexes the same files.
 *
 * Memory is bounded by the open directories (one listing per level of depth) and one
 * prefix buffer of 64 KiB; file contents are never read whole.
 *
 * The file system is read with synchronous calls (a directory listing, a file's open, fstat,
 * prefix read and close take microseconds, while each asynchronous call is a thread-pool round
 * trip: Django's 2,366 directories alone took half a second to list that way). The walk gives
 * the event loop a turn every {@link YIELD_EVERY_MS} ms, so a daemon walking a large tree
 * still answers.
 *
 * Throws `WALK_INVALID_OPTION` at once for a bad option, and `WALK_ROOT_UNREADABLE` or
 * `WALK_ROOT_NOT_DIRECTORY` on the first step when the root is unusable. Anything that
 * fails below the root is a skipped entry, never an exception.
 *
 * @example
 * for await (const entry of walkRepository('/repo', { languageMap })) {
 *   if (entry.kind === 'file') queue(entry.path, entry.match);
 *   else report(entry.path, entry.reason, entry.detail);
 * }
 */
export function walkRepository(root: string, options: WalkOptions = {}): AsyncGenerator<WalkEntry, void, undefined> {
  return new TreeWalk(resolveOptions(options)).run(root);
}

function resolveOptions(options: WalkOptions): Settings {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (!Number.isSafeInteger(maxFileBytes) || maxFileBytes < 0) {
    throw new WalkError(
      WalkErrorCode.InvalidOption,
      `maxFileBytes must be a whole number of bytes, 0 or more; got ${String(maxFileBytes)}.`,
    );
  }
  const exclude = options.exclude ?? [];
  const bad = exclude.findIndex((p) => typeof p !== 'string');
  if (bad !== -1) {
    throw new WalkError(
      WalkErrorCode.InvalidOption,
      `exclude[${bad}] must be a gitignore-style pattern string; got ${typeof exclude[bad]}.`,
    );
  }
  return {
    maxFileBytes,
    exclude,
    followSymlinks: options.followSymlinks ?? false,
    languageMap: options.languageMap,
    reportUnclaimed: options.reportUnclaimed ?? false,
    reportIgnored: options.reportIgnored ?? false,
    includeVendored: options.includeVendored ?? false,
    inspect: options.inspect,
    only: options.only ? { files: options.only, directories: directoriesLeadingTo(options.only) } : undefined,
    onDirectory: options.onDirectory,
  };
}

/** Every directory (root excluded) on the way to one of `paths`. */
function directoriesLeadingTo(paths: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) out.add(p.slice(0, i));
  return out;
}

function entryPath(entry: Entry): string {
  return entry.type === 'skip' ? entry.entry.path : entry.path;
}

/** Longest stretch the walk keeps the event loop to itself. */
const YIELD_EVERY_MS = 20;

const byKey = (a: Entry, b: Entry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function skipped(path: string, reason: SkipReason, detail: string): SkippedEntry {
  return { kind: 'skipped', path, reason, detail };
}

/** `no registered plugin claims .xyz files` / `… files named LICENSE`. */
function unclaimedDetail(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `no registered plugin claims ${name.slice(dot).toLowerCase()} files` : `no registered plugin claims files named ${name}`;
}

class TreeWalk {
  private rootReal = '';
  private readonly turns = new LoopTurns(YIELD_EVERY_MS);
  /** Where files' prefixes are read, reused instead of allocating 64 KiB per file. */
  private readonly buffer = Buffer.allocUnsafe(PREFIX_BYTES);

  constructor(private readonly settings: Settings) {}

  async *run(root: string): AsyncGenerator<WalkEntry, void, undefined> {
    this.rootReal = await openRoot(root);
    const { rules, problem } = await this.rootRules();
    const stack: Frame[] = [];
    let rootFrame: Frame;
    try {
      rootFrame = this.openFrame('', this.rootReal, this.rootReal, rules, []);
    } catch (e) {
      throw new WalkError(WalkErrorCode.RootUnreadable, `Cannot list ${root}: ${describeSystemError(e)}. Check its permissions.`, {
        cause: e,
      });
    }
    if (problem) rootFrame.entries = [...rootFrame.entries, problem].sort(byKey);
    stack.push(rootFrame);

    while (stack.length > 0) {
      await this.turns.maybe();
      const frame = stack[stack.length - 1]!;
      if (frame.next >= frame.entries.length) {
        stack.pop();
        continue;
      }
      const index = frame.next++;
      const entry = frame.entries[index]!;
      const only = this.settings.only;
      if (only && !(entry.type === 'directory' ? only.directories.has(entry.path) : only.files.has(entryPath(entry)))) continue;
      switch (entry.type) {
        case 'file': {
          const result = this.inspect(frame.matcher, entry);
          if (result) yield result;
          break;
        }
        case 'skip': {
          const result = this.judgeSkip(frame.matcher, entry);
          if (result) yield result;
          break;
        }
        case 'directory': {
          const dirPath = `${entry.path}/`;
          const why = frame.matcher.check(entry.path, true);
          if (why !== undefined) {
            if (this.settings.reportIgnored) yield skipped(dirPath, SkipReason.Ignored, `ignored by ${why}`);
            break;
          }
          if (!this.settings.includeVendored && VENDORED_DIRECTORY_NAMES.includes(entry.name)) {
            if (this.settings.reportUnclaimed) {
              yield skipped(
                dirPath,
                SkipReason.Vendored,
                `${entry.name}/ holds vendored third-party code; set includeVendored to index it`,
              );
            }
            break;
          }
          try {
            const ancestors = stack.map((f) => f.realPath);
            stack.push(this.openFrame(entry.path, entry.absPath, entry.realPath, frame.rules, ancestors));
          } catch (e) {
            yield skipped(dirPath, SkipReason.Unreadable, `cannot list the directory: ${describeSystemError(e)}`);
          }
          break;
        }
      }
    }
  }

  /** Rules that hold everywhere: `.git/info/exclude` and the `exclude` option. */
  private async rootRules(): Promise<{ rules: IgnoreRules; problem?: Entry }> {
    const infoPath = await gitInfoExcludePath(this.rootReal);
    let infoExclude: string | undefined;
    let problem: Entry | undefined;
    if (infoPath !== undefined) {
      try {
        infoExclude = await readFile(infoPath, 'utf8');
      } catch (e) {
        if (systemCode(e) !== 'ENOENT') {
          const entry = skipped('.git/info/exclude', SkipReason.Unreadable, `${describeSystemError(e)}; its ignore rules were not applied`);
          problem = { type: 'skip', key: entry.path, entry, always: true, claimable: false };
        }
      }
    }
    const rules = IgnoreRules.create({ ...(infoExclude === undefined ? {} : { infoExclude }), exclude: this.settings.exclude });
    return problem ? { rules, problem } : { rules };
  }

  /** Lists a directory, reads its ignore files, classifies and sorts its entries. */
  private openFrame(path: string, absPath: string, realPath: string, parentRules: IgnoreRules, ancestors: string[]): Frame {
    const dirents = readdirSync(absPath, { withFileTypes: true });
    this.settings.onDirectory?.(path, absPath);

    const prefix = path === '' ? '' : `${path}/`;
    const entries: Entry[] = [];
    const ignoreTexts: Partial<Record<(typeof IGNORE_FILE_NAMES)[number], string>> = {};
    for (const dirent of dirents) {
      const name = dirent.name;
      if (name === '.git') continue;
      const childPath = prefix + name;
      const childAbs = join(absPath, name);
      let type: DirentType;
      try {
        type = direntType(dirent, childAbs);
      } catch (e) {
        const entry = skipped(childPath, SkipReason.Unreadable, describeSystemError(e));
        entries.push({ type: 'skip', key: name, entry, always: false, claimable: true });
        continue;
      }
      if (type === 'directory') {
        if (name === '.travsr') continue;
        entries.push({ type, key: `${name}/`, name, path: childPath, absPath: childAbs, realPath: join(realPath, name) });
      } else if (type === 'file') {
        const ignoreName = IGNORE_FILE_NAMES.find((n) => n === name);
        if (ignoreName !== undefined) {
          try {
            ignoreTexts[ignoreName] = readFileSync(childAbs, 'utf8');
          } catch (e) {
            const entry = skipped(childPath, SkipReason.Unreadable, `${describeSystemError(e)}; its ignore rules were not applied`);
            entries.push({ type: 'skip', key: name, entry, always: true, claimable: false });
            continue;
          }
        }
        entries.push({ type, key: name, path: childPath, absPath: childAbs, throughLink: false });
      } else if (type === 'link') {
        const link = resolveLink(childAbs, {
          rootReal: this.rootReal,
          followSymlinks: this.settings.followSymlinks,
          ancestors: [...ancestors, realPath],
        });
        if (link.follow === 'directory') {
          entries.push({ type: 'directory', key: `${name}/`, name, path: childPath, absPath: childAbs, realPath: link.realPath });
        } else if (link.follow === 'file') {
          entries.push({ type: 'file', key: name, path: childPath, absPath: childAbs, throughLink: true });
        } else {
          const entry = skipped(childPath, SkipReason.Symlink, link.detail);
          entries.push({ type: 'skip', key: name, entry, always: false, claimable: !link.targetIsDirectory });
        }
      } else {
        const entry = skipped(childPath, SkipReason.Unreadable, `not a regular file (${type})`);
        entries.push({ type: 'skip', key: name, entry, always: false, claimable: true });
      }
    }
    entries.sort(byKey);
    const rules = parentRules.withDirectory(path, { gitignore: ignoreTexts['.gitignore'], travsrignore: ignoreTexts['.travsrignore'] });
    return { path, absPath, realPath, rules, matcher: rules.matcher(), entries, next: 0 };
  }

  /** Ignore rules and the language map decide first (no I/O); then the file is inspected. */
  private inspect(matcher: IgnoreMatcher, entry: Extract<Entry, { type: 'file' }>): WalkEntry | undefined {
    const gate = this.gate(matcher, entry.path, false, true);
    if (gate.stop) return gate.report;
    if (this.settings.inspect && !this.settings.inspect(entry.path)) {
      return gate.match ? { kind: 'file', path: entry.path, match: gate.match } : { kind: 'file', path: entry.path };
    }
    const result = inspectFile(entry.path, entry.absPath, {
      maxFileBytes: this.settings.maxFileBytes,
      throughLink: entry.throughLink,
      buffer: this.buffer,
    });
    if (result.kind === 'file' && gate.match) result.match = gate.match;
    return result;
  }

  private judgeSkip(matcher: IgnoreMatcher, entry: Extract<Entry, { type: 'skip' }>): WalkEntry | undefined {
    if (entry.always) return entry.entry;
    const gate = this.gate(matcher, entry.entry.path, false, entry.claimable);
    return gate.stop ? gate.report : entry.entry;
  }

  /** Whether a path is ignored or unclaimed, and what to report about it if so. */
  private gate(
    matcher: IgnoreMatcher,
    path: string,
    directory: boolean,
    claimable: boolean,
  ): { stop: true; report: SkippedEntry | undefined } | { stop: false; match: LanguageMatch | undefined } {
    const why = matcher.check(path, directory);
    if (why !== undefined) {
      return { stop: true, report: this.settings.reportIgnored ? skipped(path, SkipReason.Ignored, `ignored by ${why}`) : undefined };
    }
    const map = this.settings.languageMap;
    if (!map || !claimable) return { stop: false, match: undefined };
    const match = map.match(path);
    if (match) return { stop: false, match };
    return { stop: true, report: this.settings.reportUnclaimed ? skipped(path, SkipReason.NoPlugin, unclaimedDetail(path)) : undefined };
  }
}

async function openRoot(root: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(root);
  } catch (e) {
    throw new WalkError(WalkErrorCode.RootUnreadable, `Cannot walk ${root}: ${describeSystemError(e)}. Check the repository path.`, {
      cause: e,
    });
  }
  if (!(await stat(real)).isDirectory()) {
    throw new WalkError(
      WalkErrorCode.RootNotDirectory,
      `Cannot walk ${root}: it is not a directory. Give the repository's root directory.`,
    );
  }
  return real;
}

type DirentType = 'file' | 'directory' | 'link' | 'FIFO' | 'socket' | 'device';

/** The entry's type; file systems that do not report it in the listing get an lstat. */
function direntType(dirent: Dirent, absPath: string): DirentType {
  const known =
    dirent.isFile() ||
    dirent.isDirectory() ||
    dirent.isSymbolicLink() ||
    dirent.isFIFO() ||
    dirent.isSocket() ||
    dirent.isCharacterDevice() ||
    dirent.isBlockDevice();
  const d = known ? dirent : lstatSync(absPath);
  if (d.isFile()) return 'file';
  if (d.isDirectory()) return 'directory';
  if (d.isSymbolicLink()) return 'link';
  if (d.isFIFO()) return 'FIFO';
  if (d.isSocket()) return 'socket';
  return 'device';
}
