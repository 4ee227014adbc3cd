/**
 * The milliseconds each stage of a query took (to 0.1 ms), for `stats.stageMs`: each
 * {@link StageClock.stage} call closes the stage that ran since the previous one.
 */
export class StageClock {
  readonly stageMs: Record<string, number> = {};
  private mark: number;

  constructor(private readonly start = performance.now()) {
    this.mark = start;
  }

  /** Ends the stage `name` now. */
  stage(name: string): void {
    const now = performance.now();
    this.stageMs[name] = Math.round((now - this.mark) * 10) / 10;
    this.mark = now;
  }

  /** Whole milliseconds since the clock started. */
  elapsedMs(): number {
    return Math.round(performance.now() - this.start);
  }
}
