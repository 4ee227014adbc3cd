import type { Logger } from '../log/logger.js';
import type { Trace } from './trace.js';
import { TraceStore } from './trace-store.js';

/**
 * A trace callback that saves each trace where `travsr trace` finds it: the repository's
 * `.travsr/traces.db` when there is one, else `~/.travsr/traces.db`. The store is opened per trace, so a
 * long-lived supervisor holds no database handle between sessions. Failures are logged,
 * never thrown: losing a trace must not break indexing.
 */
export function persistentTraceSink(repoRoot: string | undefined, logger?: Logger): (trace: Trace) => void {
  return (trace) => saveTraces(repoRoot, [trace], logger);
}

/** How long a server's trace sink keeps its store open after the last save. */
const SERVER_STORE_IDLE_MS = 1000;

/**
 * {@link persistentTraceSink} for a server answering queries: traces are saved after the
 * current turn of the event loop, all those of the turn in one transaction, so the answer a
 * trace belongs to is sent first. The store stays open while questions keep coming (opening
 * it cost about a millisecond of every call) and is closed a second after the last save, so an
 * idle server holds no handle. The store is the trace database, not the graph store, whose
 * readers' page caches a commit would empty. A process that exits right after a call should use
 * {@link persistentTraceSink}: a trace still waiting is lost with it.
 */
export function deferredTraceSink(repoRoot: string | undefined, logger?: Logger): (trace: Trace) => void {
  let waiting: Trace[] = [];
  let store: TraceStore | undefined;
  let idle: NodeJS.Timeout | undefined;
  const close = () => {
    idle = undefined;
    store?.close();
    store = undefined;
  };
  return (trace) => {
    waiting.push(trace);
    if (waiting.length > 1) return;
    setImmediate(() => {
      const batch = waiting;
      waiting = [];
      if (idle) clearTimeout(idle);
      try {
        store ??= TraceStore.forRepo(repoRoot);
        store.saveAll(batch);
        idle = setTimeout(close, SERVER_STORE_IDLE_MS);
        idle.unref();
      } catch (e) {
        close();
        logFailure(batch, e, logger);
      }
    });
  };
}

function saveTraces(repoRoot: string | undefined, traces: readonly Trace[], logger?: Logger): void {
  try {
    const store = TraceStore.forRepo(repoRoot);
    try {
      store.saveAll(traces);
    } finally {
      store.close();
    }
  } catch (e) {
    logFailure(traces, e, logger);
  }
}

function logFailure(traces: readonly Trace[], e: unknown, logger: Logger | undefined): void {
  logger?.log(
    'warn',
    `${traces.length === 1 ? `trace ${traces[0]!.id} was` : `${traces.length} traces were`} not saved: ${(e as Error).message}`,
  );
}
