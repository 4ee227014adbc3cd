import { GitError, GitErrorCode } from './errors.js';

/** A file renamed between two commits. */
export interface RenamedFile {
  from: string;
  to: string;
  /** Git's similarity index, 0–100 (100: same bytes). Renames below 50 are reported as delete + add. */
  similarity: number;
}

/** A submodule (gitlink) that appeared, moved to another commit, or disappeared. */
export interface SubmoduleChange {
  path: string;
  change: 'added' | 'modified' | 'deleted';
}

/**
 * What changed between two commits, as repository-relative `/` paths in git's order.
 * A path is in at most one list, except that a rename's `from` and `to` are only in `renamed`.
 */
export interface CommitDiff {
  /** The full hash diffed from, or `null` for the empty tree (the first commit). */
  from: string | null;
  /** The full hash diffed to. */
  to: string;
  added: string[];
  /** Content or mode changed; the bytes may be unchanged (mode only), hence the sha256 check. */
  modified: string[];
  deleted: string[];
  renamed: RenamedFile[];
  /**
   * Files that switched between regular file and symlink; set only when there are some.
   * Re-read them as modified: the walk decides whether a symlink is indexed.
   */
  typeChanged?: string[];
  /**
   * Submodules are other repositories; their files are not in this graph, so they are kept
   * out of the lists above and reported here, only when there are some. A path that turned
   * from a file into a submodule is in `deleted` and here as `added` (and the reverse).
   */
  submodules?: SubmoduleChange[];
}

const GITLINK_MODE = '160000';

/**
 * Parses `git diff-tree -r -z --raw` output: per change a header
 * `:<old mode> <new mode> <old sha> <new sha> <status>[score]`, then one path, or two for
 * renames and copies, each NUL-terminated. Paths are raw bytes; they are read as UTF-8
 * (a name that is not valid UTF-8 comes out with U+FFFD in it).
 */
export function parseRawDiff(out: Buffer, from: string | null, to: string): CommitDiff {
  const fields = splitNul(out);
  const diff: CommitDiff = { from, to, added: [], modified: [], deleted: [], renamed: [] };
  const typeChanged: string[] = [];
  const submodules: SubmoduleChange[] = [];
  const file = (path: string, mode: string, list: string[], change: SubmoduleChange['change']) => {
    if (mode === GITLINK_MODE) submodules.push({ path, change });
    else list.push(path);
  };

  for (let i = 0; i < fields.length;) {
    const header = fields[i++] ?? '';
    const m = /^:(\d{6}) (\d{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])(\d*)$/.exec(header);
    if (!m) throw unparsable(header);
    const [, oldMode = '', newMode = '', status = '', score = ''] = m;
    const path = fields[i++];
    if (path === undefined) throw unparsable(header);
    switch (status) {
      case 'A':
        file(path, newMode, diff.added, 'added');
        break;
      case 'D':
        file(path, oldMode, diff.deleted, 'deleted');
        break;
      case 'M':
        file(path, newMode, diff.modified, 'modified');
        break;
      case 'T':
        if (oldMode === GITLINK_MODE || newMode === GITLINK_MODE) {
          file(path, oldMode, diff.deleted, 'deleted');
          file(path, newMode, diff.added, 'added');
        } else {
          typeChanged.push(path);
        }
        break;
      case 'R':
      case 'C': {
        const dest = fields[i++];
        if (dest === undefined) throw unparsable(header);
        if (status === 'C') {
          // Only with copy detection, which is not asked for; the source is untouched.
          file(dest, newMode, diff.added, 'added');
        } else if (oldMode === GITLINK_MODE || newMode === GITLINK_MODE) {
          file(path, oldMode, diff.deleted, 'deleted');
          file(dest, newMode, diff.added, 'added');
        } else {
          diff.renamed.push({ from: path, to: dest, similarity: Number(score || '100') });
        }
        break;
      }
      default:
        throw unparsable(header);
    }
  }
  if (typeChanged.length > 0) diff.typeChanged = typeChanged;
  if (submodules.length > 0) diff.submodules = submodules;
  return diff;
}

function splitNul(out: Buffer): string[] {
  const fields: string[] = [];
  let start = 0;
  for (let end = out.indexOf(0, start); end !== -1; end = out.indexOf(0, start)) {
    fields.push(out.toString('utf8', start, end));
    start = end + 1;
  }
  if (start < out.length && out.toString('utf8', start).trim() !== '') fields.push(out.toString('utf8', start));
  return fields;
}

function unparsable(header: string): GitError {
  return new GitError(
    GitErrorCode.OutputUnparsable,
    `git diff-tree printed a change travsr cannot read (${JSON.stringify(header.slice(0, 120))}). ` +
      'Update git to 2.31 or newer; if it persists, report it with your git version.',
  );
}
