import { randomUUID } from 'node:crypto';

/** What a trace is about. */
export type TraceKind = 'plugin-session' | 'plugin-test' | 'index-run' | 'tool-call';
/** How the traced work ended. */
export type TraceStatus = 'running' | 'completed' | 'error';

/** One constraint check made before any plugin code ran. */
export interface TraceConstraint {
  constraint: string;
  requested: string;
  granted: string;
  ok: boolean;
  reason?: string;
}

/** A state transition with its wall-clock time. */
export interface TraceTransition {
  state: string;
  at: string;
  detail?: string;
}

/**
 * A structured, queryable record of one plugin session (or test run, or tool call),
 * after Traverse's trace artifacts: what ran, under which grants, what it went through,
 * what it produced and how it ended.
 */
export interface Trace {
  id: string;
  kind: TraceKind;
  startedAt: string;
  /** `plugin-id@version` or a tool name. */
  subject: string;
  tier?: string;
  constraints: TraceConstraint[];
  transitions: TraceTransition[];
  counts: Record<string, number>;
  durationMs: number;
  status: TraceStatus;
  error?: { code: string; message: string };
  /** Free-form facts worth keeping (launch summary, checks of a conformance run, …). */
  details: Record<string, unknown>;
}

/**
 * Builds a {@link Trace} while the work happens. Time is measured with a monotonic clock
 * for the duration and wall time for timestamps.
 */
export class TraceRecorder {
  readonly trace: Trace;
  private readonly t0 = performance.now();

  constructor(kind: TraceKind, subject: string) {
    this.trace = {
      id: randomUUID(),
      kind,
      startedAt: new Date().toISOString(),
      subject,
      constraints: [],
      transitions: [],
      counts: {},
      durationMs: 0,
      status: 'running',
      details: {},
    };
  }

  /** Records entering a state. */
  transition(state: string, detail?: string): void {
    const t: TraceTransition = { state, at: new Date().toISOString() };
    if (detail !== undefined) t.detail = detail;
    this.trace.transitions.push(t);
  }

  /** Adds `by` to a counter. */
  count(name: string, by = 1): void {
    this.trace.counts[name] = (this.trace.counts[name] ?? 0) + by;
  }

  /** Ends the trace as completed, or as an error when `error` is given. */
  finish(error?: { code?: string; message: string }): Trace {
    this.trace.durationMs = Math.round((performance.now() - this.t0) * 1000) / 1000;
    if (error) {
      this.trace.status = 'error';
      this.trace.error = { code: error.code ?? 'ERROR', message: error.message };
    } else {
      this.trace.status = 'completed';
    }
    return this.trace;
  }
}
