import { existsSync } from 'node:fs';
import type { ConnectOptions, DaemonClient } from './daemon-client.js';
import { daemonPaths } from './daemon-paths.js';

/**
 * {@link connectDaemon} for commands that work without a daemon too (`ask`, `graph …`, `init`,
 * `hook-run`): without the daemon's socket nothing runs, and the gRPC client (~60 ms to load)
 * is not loaded at all.
 */
export async function connectRunningDaemon(opts: ConnectOptions = {}): Promise<DaemonClient | undefined> {
  if (!existsSync((opts.paths ?? daemonPaths()).socket)) return undefined;
  const { connectDaemon } = await import('./daemon-client.js');
  return connectDaemon(opts);
}
