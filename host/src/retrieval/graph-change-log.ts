import type { GraphChanges } from '../store/index.js';

/** Entries past which the oldest half is forgotten (a snapshot older than what is kept is loaded whole). */
const MAX_ENTRIES = 200_000;

/**
 * The graph changes a query process was told of ({@link GraphChanges}, from the daemon's
 * writer connection), in version order: which paths changed between two graph versions, for
 * {@link GraphSnapshot.refresh}. Knows the versions `from` ≤ v < `to` of contiguous reports;
 * a report that does not follow the last one starts it again.
 */
export class GraphChangeLog {
  private from = 0;
  private to = -1;
  private readonly versions: number[] = [];
  private readonly paths: string[] = [];

  /** `pull`: takes the reports that are waiting (a worker's port), when the log does not reach far enough. */
  constructor(private readonly pull?: () => void) {}

  /** Adds a report. */
  add(c: GraphChanges): void {
    if (c.from !== this.to) {
      this.versions.length = 0;
      this.paths.length = 0;
      this.from = c.from;
    }
    for (const [v, p] of c.changes) {
      this.versions.push(v);
      this.paths.push(p);
    }
    this.to = c.to;
    if (this.versions.length > MAX_ENTRIES) this.forgetOldest();
  }

  /** The paths that changed at versions `a` ≤ v < `b`; undefined when the log does not cover them all. */
  between(a: number, b: number): Set<string> | undefined {
    if (b > this.to) this.pull?.();
    if (a < this.from || b > this.to || a > b) return undefined;
    const out = new Set<string>();
    for (let i = this.versions.length - 1; i >= 0 && this.versions[i]! >= a; i--) if (this.versions[i]! < b) out.add(this.paths[i]!);
    return out;
  }

  private forgetOldest(): void {
    let cut = this.versions.length >> 1;
    while (cut < this.versions.length && this.versions[cut] === this.versions[cut - 1]) cut++;
    this.from = this.versions[cut] ?? this.to;
    this.versions.splice(0, cut);
    this.paths.splice(0, cut);
  }
}
