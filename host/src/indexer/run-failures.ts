import type { GraphStore } from '../store/index.js';
import type { Job } from './change-plan.js';
import type { IndexSummary } from './index-summary.js';

const MAX_FAILURES_LISTED = 50;

/**
 * The failures of an index run: counted and listed in the summary (the first
 * {@link MAX_FAILURES_LISTED}), and, for a file the plugin never delivered, recorded in the
 * store as failed (its older graph stays; the next run retries it).
 */
export class RunFailures {
  constructor(
    private readonly store: GraphStore,
    private readonly summary: IndexSummary,
  ) {}

  /** One failed file; `job` when nothing of this run reached the store for it. */
  record(path: string, plugin: string, reason: string, job?: Job): void {
    this.summary.failed++;
    if (this.summary.failures.length < MAX_FAILURES_LISTED) this.summary.failures.push({ path, plugin, reason });
    if (job) {
      this.store.replaceFile({
        path,
        sha256: job.sha256,
        language: job.language,
        phase: 'A',
        plugin,
        status: 'failed',
        nodes: [],
        edges: [],
        refs: [],
        diagnostics: [{ severity: 'error', code: 'ANALYSIS_FAILED', message: reason }],
      });
    }
  }
}
