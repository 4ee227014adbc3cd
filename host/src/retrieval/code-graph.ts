import type { GraphStore } from '../store/index.js';
import type { GraphChangeLog } from './graph-change-log.js';
import { GraphSnapshot } from './graph-snapshot.js';
import { indexCompleteness, type Completeness } from './index-completeness.js';
import { SourceReader } from './source-snippets.js';

/**
 * One repository's graph as the query side sees it: the store, the in-memory snapshot
 * (reloaded when the store's graph version moves, e.g. after a commit's reindex), the
 * completeness report and the source reader for snippets. Long-lived in the MCP server;
 * one per command in the CLI.
 */
export class CodeGraph {
  private snap: GraphSnapshot | undefined;
  private pin: GraphSnapshot | undefined;
  private pinning = false;
  private completenessCache: { version: number; value: Completeness } | undefined;
  private shaCache: { version: number; value: Map<string, string> } | undefined;
  readonly sources: SourceReader;
  /** What changed between graph versions, when someone reports it (the daemon): the snapshot is then patched, not reloaded. */
  changes: GraphChangeLog | undefined;

  constructor(
    /** The repository root (snippets are read from its working tree). */
    readonly repoRoot: string,
    readonly store: GraphStore,
    /** The corpus the repository's own nodes carry. */
    readonly corpus: string,
  ) {
    this.sources = new SourceReader(repoRoot);
  }

  /**
   * Runs `fn` (one tool call) on one snapshot: every {@link snapshot} inside gives the same one,
   * however the graph moves meanwhile (a daemon writes while it answers), so one answer is
   * built on one graph and the snapshot is brought up to date once.
   */
  pinned<T>(fn: () => T): T {
    if (this.pinning) return fn();
    this.pinning = true;
    try {
      return fn();
    } finally {
      this.pinning = false;
      this.pin = undefined;
    }
  }

  /** The current snapshot, reloaded if the graph changed since the last call (the pinned one inside {@link pinned}). */
  snapshot(): GraphSnapshot {
    return this.pinning ? (this.pin ??= this.current()) : this.current();
  }

  /** The snapshot of the store's current graph version. */
  private current(): GraphSnapshot {
    const version = this.store.graphVersion();
    if (!this.snap || this.snap.graphVersion !== version) {
      const log = this.changes;
      // The files read for snippets stay, but for those the change log names (all without one).
      let changed: Set<string> | undefined;
      this.snap =
        this.snap && log
          ? GraphSnapshot.refresh(this.store, this.snap, (a, b) => (changed = log.between(a, b)))
          : GraphSnapshot.load(this.store);
      if (changed) this.sources.forget(changed);
      else this.sources.clear();
    }
    return this.snap;
  }

  /** The sha256 each file was indexed at, by path (cached per graph version): tells a stale snippet. */
  fileSha256s(): Map<string, string> {
    const version = this.store.graphVersion();
    if (this.shaCache?.version !== version)
      this.shaCache = { version, value: new Map(this.store.listFiles().map((f) => [f.path, f.sha256])) };
    return this.shaCache.value;
  }

  /** What answers built on this graph may miss (cached per graph version). */
  completeness(): Completeness {
    const version = this.store.graphVersion();
    if (this.completenessCache?.version !== version) this.completenessCache = { version, value: indexCompleteness(this.store) };
    return this.completenessCache.value;
  }
}
