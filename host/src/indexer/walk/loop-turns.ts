/**
 * Turns of the event loop for work done with synchronous file-system calls (the walk, hashing):
 * such work holds the loop, so every so often it lets timers, sockets and other requests run
 * (a daemon walking a large tree still answers). Cheap to call per item: it reads the clock and
 * awaits only when the stretch is over.
 *
 * @example
 * ```ts
 * const turns = new LoopTurns();
 * for (const path of paths) {
 *   await turns.maybe();
 *   hashFileSync(join(root, path));
 * }
 * ```
 */
export class LoopTurns {
  private since = performance.now();

  /** @param everyMs the longest stretch the caller keeps the loop to itself. */
  constructor(private readonly everyMs = 20) {}

  /** Resolves at once while the stretch lasts; past it, after one turn of the event loop. */
  maybe(): Promise<void> | undefined {
    if (performance.now() - this.since < this.everyMs) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.since = performance.now();
        resolve();
      }),
    );
  }
}
