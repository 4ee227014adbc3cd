import type { RequestId } from '@travsr/protocol';
import type { Connection } from '@travsr/protocol/node';

/**
 * Minimum time between two `progress` notifications of one request.
 *
 * @example
 * ```ts
 * PROGRESS_INTERVAL_MS; // 250
 * ```
 */
export const PROGRESS_INTERVAL_MS = 250;

/**
 * Sends `progress` notifications for one `analyze` request at a bounded rate: at most one
 * per {@link PROGRESS_INTERVAL_MS}, plus a final one when work completes.
 */
export class ProgressReporter {
  private lastSentAt = Date.now();
  private lastDone = -1;

  constructor(
    private readonly conn: Connection,
    private readonly requestId: RequestId,
    private readonly total: number,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  /** Records that `done` files are finished; sends a notification if the interval elapsed. */
  async update(done: number): Promise<void> {
    const now = Date.now();
    if (now - this.lastSentAt < this.intervalMs) return;
    await this.send(done, now);
  }

  /** Sends the final count, unless it was the last thing sent. */
  async finish(): Promise<void> {
    if (this.lastDone === this.total) return;
    await this.send(this.total, Date.now());
  }

  private async send(done: number, now: number): Promise<void> {
    this.lastSentAt = now;
    this.lastDone = done;
    await this.conn.notify('progress', { requestId: this.requestId, done: Math.min(done, this.total), total: this.total });
  }
}
