import type { Logger } from '../log/logger.js';
import type { Trace } from './trace.js';
import { TraceStore } from './trace-store.js';

/**
 * A trace callback that saves each trace where `travsr trace` finds it: the repository's
 * store when there is one, else `~/.travsr/traces.db`. The store is opened per trace, so a
 * long-lived supervisor holds no database handle between sessions. Failures are logged,
 * never thrown: losing a trace must not break indexing.
 */
export function persistentTraceSink(repoRoot: string | undefined, logger?: Logger): (trace: Trace) => void {
  return (trace) => saveTraces(repoRoot, [trace], logger);
}

/**
 * {@link persistentTraceSink} for a server answering queries: traces are saved after the
 * current turn of the event loop, all those of the turn in one store opening, so the answer a
 * trace belongs to is sent first. Opening the store and committing cost about a millisecond,
 * and a commit moves the database's version under every reader's caches. A process that
 * exits right after a call should use {@link persistentTraceSink}: a trace still waiting
 * is lost with it.
 */
export function deferredTraceSink(repoRoot: string | undefined, logger?: Logger): (trace: Trace) => void {
  let waiting: Trace[] = [];
  return (trace) => {
    waiting.push(trace);
    if (waiting.length > 1) return;
    setImmediate(() => {
      const batch = waiting;
      waiting = [];
      saveTraces(repoRoot, batch, logger);
    });
  };
}

function saveTraces(repoRoot: string | undefined, traces: readonly Trace[], logger?: Logger): void {
  try {
    const store = TraceStore.forRepo(repoRoot);
    try {
      for (const trace of traces) store.save(trace);
    } finally {
      store.close();
    }
  } catch (e) {
    logger?.log(
      'warn',
      `${traces.length === 1 ? `trace ${traces[0]!.id} was` : `${traces.length} traces were`} not saved: ${(e as Error).message}`,
    );
  }
}
