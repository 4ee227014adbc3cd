import type { LanguageMatch } from './language-map.js';

/** Why the walker left a path out of the index. */
export const SkipReason = {
  /** Larger than `maxFileBytes`. */
  TooLarge: 'too-large',
  /** A NUL byte in the first 8 KiB, or a known binary extension. */
  Binary: 'binary',
  /** A generator's marker comment in the first lines, a `.min.js`/`.min.css` name, or minified text. */
  Generated: 'generated',
  /** A `node_modules/` or `vendor/` directory (reported only with `reportUnclaimed`). */
  Vendored: 'vendored',
  /** Could not be read (permissions, vanished during the walk), or not a regular file. */
  Unreadable: 'unreadable',
  /** A symbolic link not followed: following is off, or it is broken, escapes the root or loops. */
  Symlink: 'symlink',
  /** No registered plugin claims it (reported only with `reportUnclaimed`). */
  NoPlugin: 'no-plugin',
  /** Matched by an ignore rule or the `exclude` option (reported only with `reportIgnored`). */
  Ignored: 'ignored',
} as const;
/** One of {@link SkipReason}. */
export type SkipReason = (typeof SkipReason)[keyof typeof SkipReason];

/** A file to index. */
export interface WalkedFile {
  kind: 'file';
  /** Repo-relative, `/`-separated. */
  path: string;
  /** Bytes, from the walk's stat; absent when the walk was told not to inspect it (`WalkOptions.inspect`). */
  size?: number;
  /** The plugin that analyzes it, when the walk was given a `languageMap`. */
  match?: LanguageMatch;
}

/** A path left out, with the reason and a one-line detail for the user. */
export interface SkippedEntry {
  kind: 'skipped';
  /** Repo-relative, `/`-separated; a directory skipped as a whole ends with `/`. */
  path: string;
  reason: SkipReason;
  /** What exactly, e.g. `2483021 bytes is over the 1048576-byte limit (maxFileBytes)`. */
  detail: string;
}

/** What {@link walkRepository} yields, in path order. */
export type WalkEntry = WalkedFile | SkippedEntry;
