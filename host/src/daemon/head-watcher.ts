import { watch, readFileSync, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';

/** How the head watcher is tuned. */
export interface HeadWatcherOptions {
  /** The working tree's git directory (`git rev-parse --absolute-git-dir`: its HEAD). */
  gitDir: string;
  /** The directory shared by all worktrees (`--git-common-dir`: refs and packed-refs). */
  commonDir: string;
  /** Called once per move of HEAD (a commit, checkout, reset, merge, pull…). */
  onMoved: () => void;
  /** Events are coalesced over this many milliseconds (default 25). */
  settleMs?: number;
  /** HEAD is also read this often, for moves no event reported (default 2,000; 0: never). */
  pollMs?: number;
}

/**
 * Follows a repository's HEAD without a hook and without running git: the daemon learns of a
 * commit as soon as git wrote it, so the post-commit hook has nothing left to do while a daemon
 * watches (see `DAEMON_PID_FILE`). HEAD's position is read from the files git keeps (`HEAD`,
 * the loose ref it names, `packed-refs`); the OS reports writes to the git directory, its
 * `logs/` (the reflog git appends after every move) and the directory of the current branch's
 * ref, and a slow poll catches what no event reported (reflogs turned off, a branch in a folder
 * created after the watch was set).
 */
export class HeadWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private last: string;
  private timer: NodeJS.Timeout | undefined;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly opts: HeadWatcherOptions) {
    this.last = headPosition(opts.gitDir, opts.commonDir);
  }

  /** Starts watching; HEAD's position now is the one later moves are measured from. */
  start(): void {
    this.last = headPosition(this.opts.gitDir, this.opts.commonDir);
    this.arm();
    const pollMs = this.opts.pollMs ?? 2000;
    if (pollMs > 0) {
      this.poll = setInterval(() => this.check(), pollMs);
      this.poll.unref();
    }
  }

  /**
   * The commit HEAD is at, read from git's files: undefined before the first commit; null when
   * the files do not tell (a symbolic ref outside `refs/`, an unreadable HEAD): ask git.
   */
  commit(): string | undefined | null {
    return headCommitOf(headPosition(this.opts.gitDir, this.opts.commonDir));
  }

  /** Stops every watch and the poll. */
  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.timer) clearTimeout(this.timer);
    if (this.poll) clearInterval(this.poll);
  }

  /** Watches the directories whose writes can move HEAD (the branch's may change with HEAD). */
  private arm(): void {
    const { gitDir, commonDir } = this.opts;
    const dirs = new Set([gitDir, join(gitDir, 'logs'), commonDir]);
    const ref = symbolicRef(gitDir);
    if (ref) dirs.add(dirname(join(commonDir, ref)));
    for (const [dir, w] of this.watchers) {
      if (dirs.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: false }, () => this.soon());
        // A directory removed under the watch (a branch folder deleted) only stops its events.
        w.on('error', () => {
          w.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, w);
      } catch {
        // A directory that does not exist (no reflog, a ref only in packed-refs): the poll covers it.
      }
    }
  }

  private soon(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.check();
    }, this.opts.settleMs ?? 25);
  }

  private check(): void {
    if (this.closed) return;
    const now = headPosition(this.opts.gitDir, this.opts.commonDir);
    if (now === this.last) return;
    this.last = now;
    this.arm();
    this.opts.onMoved();
  }
}

/** The ref HEAD points at (`refs/heads/main`), or undefined when detached, unreadable or not a ref under `refs/`. */
function symbolicRef(gitDir: string): string | undefined {
  const head = readText(join(gitDir, 'HEAD'));
  return head?.startsWith('ref: ') ? refName(head.slice(5).trim()) : undefined;
}

/** `ref` when it names a file under `refs/` (git refuses any other symbolic HEAD); nothing outside the git directory is read or watched. */
function refName(ref: string): string | undefined {
  return ref.startsWith('refs/') && !ref.split('/').includes('..') && !ref.includes('\0') ? ref : undefined;
}

/**
 * Where HEAD is, as text that changes exactly when HEAD moves: the detached hash, or the
 * branch's name with the hash its loose ref or `packed-refs` line holds ('' when unreadable).
 */
export function headPosition(gitDir: string, commonDir: string): string {
  const head = readText(join(gitDir, 'HEAD'))?.trim();
  if (head === undefined) return '';
  if (!head.startsWith('ref: ')) return head;
  const ref = refName(head.slice(5).trim());
  if (ref === undefined) return head;
  const loose = readText(join(commonDir, ref)) ?? readText(join(gitDir, ref));
  if (loose !== undefined) return `${ref} ${loose.trim()}`;
  const packed = readText(join(commonDir, 'packed-refs')) ?? '';
  const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
  return `${ref} ${line?.split(' ')[0] ?? 'unborn'}`;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The commit of a {@link headPosition}: its hash, undefined for an unborn branch, null when it names none. */
export function headCommitOf(position: string): string | undefined | null {
  const hash = position.slice(position.lastIndexOf(' ') + 1);
  if (/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(hash)) return hash;
  return position.startsWith('refs/') && hash === 'unborn' ? undefined : null;
}
