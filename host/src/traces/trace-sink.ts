import type { Logger } from '../log/logger.js';
import type { Trace } from './trace.js';
import { TraceStore } from './trace-store.js';

/**
 * A trace callback that saves each trace where `travsr trace` finds it: the repository's
 * `.travsr/traces.db` when there is one, else `~/.travsr/traces.db`. Saves made within a second
 * of each other share one open store (see {@link saveTraces}). Failures are logged, never thrown:
 * losing a trace must not break indexing.
 */
export function persistentTraceSink(repoRoot: string | undefined, logger?: Logger): (trace: Trace) => void {
  return (trace) => saveTraces(repoRoot, [trace], logger);
}

/**
 * {@link persistentTraceSink} for a server answering queries: traces are saved after the
 * current turn of the event loop, all those of the turn in one transaction, so the answer a
 * trace belongs to is sent first. A process that exits right after a call should use
 * {@link persistentTraceSink}: a trace still waiting is lost with it.
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

/** How long a trace store stays open after its last save. */
const STORE_IDLE_MS = 1000;

/** A trace store held open, and the timer that closes it. */
interface HeldStore {
  store: TraceStore;
  timer?: NodeJS.Timeout;
}

/** The trace stores this process holds open, by file. */
const held = new Map<string, HeldStore>();

/**
 * Saves `traces` in one transaction into the store of `repoRoot`, opened once for all the saves
 * that come within {@link STORE_IDLE_MS} of each other — an index run's plugin sessions and the
 * run itself, a server's questions — and closed a second after the last, so an idle process holds
 * no handle. (Each open and close cost ~5 ms: making and checkpointing the write-ahead log, two
 * syncs.) The timer keeps no process alive: one that exits first leaves its committed traces in
 * the log, where the next open finds them. A store that fails is closed, and the traces logged.
 */
function saveTraces(repoRoot: string | undefined, traces: readonly Trace[], logger?: Logger): void {
  const path = TraceStore.locate(repoRoot);
  let entry = held.get(path);
  try {
    if (!entry) held.set(path, (entry = { store: TraceStore.forRepo(repoRoot) }));
    entry.store.saveAll(traces);
  } catch (e) {
    if (entry) release(path, entry);
    logFailure(traces, e, logger);
    return;
  }
  const open = entry;
  clearTimeout(open.timer);
  open.timer = setTimeout(() => release(path, open), STORE_IDLE_MS);
  open.timer.unref();
}

function release(path: string, entry: HeldStore): void {
  clearTimeout(entry.timer);
  if (held.get(path) === entry) held.delete(path);
  try {
    entry.store.close();
  } catch {
    // Closing what could not be used: nothing more to do.
  }
}

function logFailure(traces: readonly Trace[], e: unknown, logger: Logger | undefined): void {
  logger?.log(
    'warn',
    `${traces.length === 1 ? `trace ${traces[0]!.id} was` : `${traces.length} traces were`} not saved: ${(e as Error).message}`,
  );
}
