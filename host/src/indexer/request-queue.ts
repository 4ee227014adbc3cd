import type { Job } from './change-plan.js';

/** One analyze request of a plugin's part of a run: a phase and the files of one batch. */
export interface BatchRequest {
  phase: 'A' | 'B';
  batch: Job[];
  /** The files asked for ahead of the phase's others (see {@link RequestQueue} `ahead`), and others follow. */
  ahead?: boolean;
}

/**
 * The requests of one plugin's part of a run, phase by phase and batch by batch. A phase's
 * files are chosen when its first batch is asked for — after every answer of the phase before
 * arrived — so that a file that failed there is not asked for again.
 */
export class RequestQueue {
  private phaseAt = -1;
  private queue: Job[] = [];

  constructor(
    private readonly phases: readonly ('A' | 'B')[],
    private readonly files: readonly Job[],
    private readonly phasesOf: (path: string) => readonly ('A' | 'B')[],
    private readonly failed: ReadonlySet<string>,
    private readonly batchSize: number,
    /** Narrows a phase's files once they are chosen (the dependents a change turned out not to reach). */
    private readonly narrow: (phase: 'A' | 'B', files: Job[]) => Job[] = (_, files) => files,
    /**
     * Files that go in a request of their own, ahead of the others of a later phase: the files
     * an edit changed, whose resolved graph someone waits for, before their dependents.
     */
    private readonly ahead?: (path: string) => boolean,
  ) {}

  /** The next request, or undefined when every phase is done. */
  next(): BatchRequest | undefined {
    let aheadCount = 0;
    while (this.queue.length === 0) {
      if (this.phaseAt + 1 >= this.phases.length) return undefined;
      const phase = this.phases[++this.phaseAt]!;
      this.queue = this.narrow(
        phase,
        this.files.filter((f) => !this.failed.has(f.path) && this.phasesOf(f.path).includes(phase)),
      );
      const ahead = this.ahead;
      if (ahead && this.phaseAt > 0) {
        const first: Job[] = [];
        const rest: Job[] = [];
        for (const j of this.queue) (ahead(j.path) ? first : rest).push(j);
        if (first.length > 0 && rest.length > 0) {
          this.queue = [...first, ...rest];
          aheadCount = first.length;
        }
      }
    }
    const size = aheadCount > 0 ? Math.min(aheadCount, Math.max(1, this.batchSize)) : Math.max(1, this.batchSize);
    return { phase: this.phases[this.phaseAt]!, batch: this.queue.splice(0, size), ...(aheadCount > 0 ? { ahead: true } : {}) };
  }

  /** Puts files back at the head of the current phase (for a restarted plugin). */
  requeue(jobs: readonly Job[]): void {
    this.queue.unshift(...jobs);
  }

  /** Ends the run of this plugin: the files left in the current phase (later phases are never asked for). */
  abandonPhase(): Job[] {
    this.phaseAt = this.phases.length;
    return this.queue.splice(0);
  }
}
