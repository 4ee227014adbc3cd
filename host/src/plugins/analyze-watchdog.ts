/** Why an analyze request was stopped by its {@link AnalyzeWatchdog}. */
export type WatchdogVerdict = { kind: 'idle'; idleMs: number } | { kind: 'deadline'; deadlineMs: number };

/** What an {@link AnalyzeWatchdog} watches and whom it tells. */
export interface AnalyzeWatchdogOptions {
  /** Longest time without a sign of life. */
  idleMs: number;
  /** Hard limit on the whole request, whatever the plugin sends. */
  deadlineMs: number;
  /** Bytes and complete frames received so far on the frame stream. */
  inbound: () => { bytesIn: number; framesIn: number };
  /** Called once, when either limit is passed. */
  onExpired: (verdict: WatchdogVerdict) => void;
}

/**
 * Watches one analyze request for two things: silence (no sign of life for `idleMs`) and
 * overrun (the request is still open after `deadlineMs`). Only work counts as life: a
 * streamed file, a log line, stderr output, a frame still arriving, or progress whose `done`
 * counter went past every value seen before. A plugin repeating the same progress forever
 * looks idle; one that keeps counting up is stopped by the deadline, which nothing extends.
 */
export class AnalyzeWatchdog {
  private readonly started = performance.now();
  private lastLife = this.started;
  private lastBytes: number;
  private lastFrames: number;
  private maxDone = -1;
  private readonly timer: NodeJS.Timeout;
  private expired = false;

  constructor(private readonly opts: AnalyzeWatchdogOptions) {
    const now = opts.inbound();
    this.lastBytes = now.bytesIn;
    this.lastFrames = now.framesIn;
    // Ticks often enough to be within a quarter of the shorter limit, at most once a second.
    const tickMs = Math.max(20, Math.min(1000, opts.idleMs / 4, opts.deadlineMs / 4));
    this.timer = setInterval(() => this.tick(), tickMs);
    this.timer.unref();
  }

  /** A sign of life that is work: a file, a log line, stderr output. */
  alive(): void {
    this.lastLife = performance.now();
  }

  /** Progress counts as life only when `done` goes past every value this request reported. */
  progress(done: number): void {
    if (done > this.maxDone) {
      this.maxDone = done;
      this.alive();
    }
  }

  /** Stops watching (the request ended). */
  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    if (this.expired) return;
    const now = performance.now();
    const { bytesIn, framesIn } = this.opts.inbound();
    // Bytes with no new complete frame: a large frame is on its way, which is work.
    if (bytesIn !== this.lastBytes && framesIn === this.lastFrames) this.lastLife = now;
    this.lastBytes = bytesIn;
    this.lastFrames = framesIn;
    if (now - this.started > this.opts.deadlineMs) this.expire({ kind: 'deadline', deadlineMs: this.opts.deadlineMs });
    else if (now - this.lastLife > this.opts.idleMs) this.expire({ kind: 'idle', idleMs: this.opts.idleMs });
  }

  private expire(verdict: WatchdogVerdict): void {
    this.expired = true;
    this.stop();
    this.opts.onExpired(verdict);
  }
}
