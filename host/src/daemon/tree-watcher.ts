import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '@travsr/protocol';
import { IGNORE_FILE_NAMES, walkRepository } from '../indexer/walk/index.js';

/** How a repository's changes are seen: OS file watches, periodic scans, or not at all. */
export type WatchMode = 'watching' | 'scanning' | 'stopped';

/** Options of a {@link TreeWatcher}. */
export interface TreeWatcherOptions {
  /** `index.exclude`: the walk's own patterns, so the watcher leaves out what the indexer leaves out. */
  exclude?: readonly string[];
  followSymlinks?: boolean;
  /** At most this many directories get an OS watch; a larger tree is scanned instead. */
  maxDirectories: number;
  /** Between two scans, when scanning (ms). */
  scanIntervalMs: number;
  /** Paths (repository-relative; files or directories, present or gone) that changed. */
  onChange(paths: readonly string[]): void;
  /** The OS did not say what changed (its event queue overflowed): only a full look at the tree is safe. */
  onLost?(): void;
  /** The watcher switched to scanning (or back): `note` says why. */
  onMode?(mode: WatchMode, note: string | undefined): void;
}

/** Codes with which the OS refuses one more watch: the per-user limit (inotify's ENOSPC), or descriptors. */
const WATCH_LIMIT_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

/**
 * Follows the changes of a repository's working tree for the daemon: one OS watch per
 * directory the indexer's walk enters (the same ignore rules, `.git/`, `.travsr/` and vendored
 * directories left out, so `node_modules/` costs nothing), with directories added and dropped as
 * they come and go. When the tree has more directories than `maxDirectories`, or the OS refuses
 * a watch (its per-user limit, `fs.inotify.max_user_watches` on Linux), every watch is closed
 * and the tree is scanned every `scanIntervalMs` instead (size and mtime of every file the walk
 * yields), and {@link note} says why.
 *
 * Reports raw paths: the daemon's updater decides what they mean (a file changed or deleted, a
 * directory that came or went, an ignore file that changes what is indexed).
 */
export class TreeWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private mode_: WatchMode = 'stopped';
  private note_: string | undefined;
  private scanTimer: NodeJS.Timeout | undefined;
  /** The last scan: path → `size:mtime`. */
  private scanned = new Map<string, string>();
  private resyncTimer: NodeJS.Timeout | undefined;
  private resyncing: Promise<void> | undefined;
  private closed = false;

  constructor(
    readonly root: string,
    private readonly opts: TreeWatcherOptions,
  ) {}

  /** `watching`, `scanning` or `stopped`. */
  get mode(): WatchMode {
    return this.mode_;
  }

  /** Why the tree is scanned rather than watched, when it is. */
  get note(): string | undefined {
    return this.note_;
  }

  /** Directories with an OS watch. */
  get watchedDirectories(): number {
    return this.watchers.size;
  }

  /** Lists the tree and watches it (or starts scanning it). Resolves once changes are being seen. */
  async start(): Promise<void> {
    const { directories } = await this.list();
    if (this.closed) return;
    if (directories.size > this.opts.maxDirectories) {
      await this.startScanning(
        `the tree has ${directories.size} directories to watch, more than daemon.maxWatchedDirectories (${this.opts.maxDirectories})`,
      );
      return;
    }
    for (const [path, abs] of directories) {
      const refused = this.watchDirectory(path, abs);
      if (refused) return this.startScanning(refused);
    }
    this.setMode('watching', undefined);
  }

  /** Closes every watch and stops scanning. */
  close(): void {
    this.closed = true;
    if (this.scanTimer) clearTimeout(this.scanTimer);
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.setMode('stopped', this.note_);
  }

  private setMode(mode: WatchMode, note: string | undefined): void {
    const changed = mode !== this.mode_ || note !== this.note_;
    this.mode_ = mode;
    this.note_ = note;
    if (changed) this.opts.onMode?.(mode, note);
  }

  /** The directories the walk enters (with their absolute paths) and the files it yields. */
  private async list(): Promise<{ directories: Map<string, string>; files: string[] }> {
    const directories = new Map<string, string>();
    const files: string[] = [];
    for await (const entry of walkRepository(this.root, {
      exclude: this.opts.exclude ?? [],
      followSymlinks: this.opts.followSymlinks ?? false,
      inspect: () => false,
      onDirectory: (path, abs) => directories.set(path, abs),
    })) {
      if (entry.kind === 'file') files.push(entry.path);
    }
    return { directories, files };
  }

  /** One directory's watch; when the OS refuses it for its limit, why (the caller then scans). */
  private watchDirectory(path: string, abs: string): string | undefined {
    if (this.watchers.has(path)) return undefined;
    let w: FSWatcher;
    try {
      w = watch(abs, { persistent: false }, (_event, name) => this.onEvent(path, name === null ? null : String(name)));
    } catch (e) {
      const code = errorCode(e) ?? '';
      if (WATCH_LIMIT_CODES.has(code))
        return `the operating system refused another file watch (${code}: the per-user limit, fs.inotify.max_user_watches on Linux, is reached); raise it with \`sysctl fs.inotify.max_user_watches=524288\``;
      // Gone or unreadable since it was listed: the next resync decides.
      this.scheduleResync();
      return undefined;
    }
    w.on('error', () => {
      // The directory was removed or became unreadable: its watch is dropped, the parent's event reports it.
      w.close();
      if (this.watchers.get(path) === w) this.watchers.delete(path);
      this.scheduleResync();
    });
    this.watchers.set(path, w);
    return undefined;
  }

  private onEvent(dir: string, name: string | null): void {
    if (this.closed || this.mode_ !== 'watching') return;
    if (name === null) {
      // The OS did not say what changed.
      this.opts.onLost?.();
      this.scheduleResync();
      return;
    }
    if (dir === '' && (name === '.git' || name === '.travsr')) return;
    const path = dir === '' ? name : `${dir}/${name}`;
    this.opts.onChange([path]);
    // A directory that came or went, or an ignore file, changes what is watched.
    if ((IGNORE_FILE_NAMES as readonly string[]).includes(name) || this.watchers.has(path)) this.scheduleResync();
    else {
      void stat(join(this.root, path)).then(
        (s) => {
          if (s.isDirectory()) this.scheduleResync();
        },
        () => undefined,
      );
    }
  }

  /** Brings the set of watches in line with the tree soon (events come in bursts). */
  private scheduleResync(): void {
    if (this.closed || this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      this.resyncing = (this.resyncing ?? Promise.resolve()).then(() => this.resync()).catch(() => undefined);
    }, 50);
  }

  /**
   * Lists the tree again: new directories are watched and their files reported (they may have
   * been written before the watch existed), watches of directories that are gone or now ignored
   * are closed.
   */
  private async resync(): Promise<void> {
    if (this.closed || this.mode_ !== 'watching') return;
    const { directories, files } = await this.list();
    if (this.closed || this.mode_ !== 'watching') return;
    if (directories.size > this.opts.maxDirectories) {
      await this.startScanning(
        `the tree grew to ${directories.size} directories to watch, more than daemon.maxWatchedDirectories (${this.opts.maxDirectories})`,
      );
      return;
    }
    const added = [...directories.keys()].filter((d) => !this.watchers.has(d));
    for (const [path, w] of this.watchers) {
      if (!directories.has(path)) {
        w.close();
        this.watchers.delete(path);
      }
    }
    const isNew = (file: string) => added.some((d) => d !== '' && file.startsWith(`${d}/`));
    const inNew = added.length > 0 ? files.filter(isNew) : [];
    if (inNew.length > 0) this.opts.onChange(inNew);
    for (const d of added) {
      const refused = this.watchDirectory(d, directories.get(d)!);
      if (refused) return this.startScanning(refused);
    }
  }

  /** Closes every watch and scans the tree every `scanIntervalMs` from now on. */
  private async startScanning(note: string): Promise<void> {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    if (this.mode_ === 'scanning' || this.closed) return;
    this.setMode('scanning', note);
    this.scanned = await this.scan();
    this.scheduleScan();
  }

  private scheduleScan(): void {
    if (this.closed) return;
    this.scanTimer = setTimeout(() => {
      void this.scanOnce().finally(() => this.scheduleScan());
    }, this.opts.scanIntervalMs);
    this.scanTimer.unref();
  }

  /** One scan: every file that was added, removed, or changed size or mtime since the last one. */
  private async scanOnce(): Promise<void> {
    const now = await this.scan().catch(() => undefined);
    if (!now || this.closed) return;
    const changed: string[] = [];
    for (const [path, sig] of now) if (this.scanned.get(path) !== sig) changed.push(path);
    for (const path of this.scanned.keys()) if (!now.has(path)) changed.push(path);
    this.scanned = now;
    if (changed.length > 0) this.opts.onChange(changed);
  }

  private async scan(): Promise<Map<string, string>> {
    const { files } = await this.list();
    const out = new Map<string, string>();
    const queue = [...files];
    const worker = async () => {
      for (let f = queue.pop(); f !== undefined; f = queue.pop()) {
        try {
          const s = await stat(join(this.root, f));
          out.set(f, `${s.size}:${s.mtimeMs}:${s.ino}`);
        } catch {
          // Gone between the listing and the stat: not there.
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    return out;
  }
}
