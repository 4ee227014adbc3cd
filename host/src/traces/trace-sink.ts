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
  return (trace) => {
    try {
      const store = TraceStore.forRepo(repoRoot);
      try {
        store.save(trace);
      } finally {
        store.close();
      }
    } catch (e) {
      logger?.log('warn', `trace ${trace.id} was not saved: ${(e as Error).message}`);
    }
  };
}
