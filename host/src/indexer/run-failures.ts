import type { IndexSummary } from './index-summary.js';

const MAX_FAILURES_LISTED = 50;

/**
 * The failures of an index run as the summary reports them: counted, and the first
 * {@link MAX_FAILURES_LISTED} listed. (The store hears of each failure through the run's
 * {@link FileWriteBatch}, like of every other outcome.)
 */
export class RunFailures {
  constructor(private readonly summary: IndexSummary) {}

  /** One failed file. */
  record(path: string, plugin: string, reason: string): void {
    this.summary.failed++;
    if (this.summary.failures.length < MAX_FAILURES_LISTED) this.summary.failures.push({ path, plugin, reason });
  }
}
