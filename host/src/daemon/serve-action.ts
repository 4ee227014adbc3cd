import { readFileSync } from 'node:fs';
import { oauthOptionsOf } from '../mcp/oauth.js';
import { loadConfig } from '../config/index.js';
import type { Logger, LogLevel } from '../log/logger.js';
import { terminalText } from '../log/terminal-text.js';
import { daemonPaths } from './daemon-paths.js';
import { startDaemon, type RunningDaemon } from './daemon-server.js';
import { DaemonError, DaemonErrorCode } from './errors.js';
import { parseAddress } from './mcp-http-host.js';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger for the daemon: `<ISO time> <level> <message>` lines on stderr (the daemon log when detached). */
export function daemonLogger(minLevel: LogLevel): Logger {
  const min = ORDER[minLevel] ?? ORDER.info;
  return {
    log(level, message) {
      if (ORDER[level] >= min)
        process.stderr.write(`${new Date().toISOString()} ${level.padEnd(5)} ${terminalText(message).replaceAll('\n', '\n      ')}\n`);
    },
  };
}

/** Options of `travsr serve`. */
export interface ServeOptions {
  repos?: readonly string[];
  listen?: string;
  tokenFile?: string;
  /** Also serve MCP over HTTP at this `host:port`. */
  mcpHttp?: string;
  /** With `mcpHttp` on a loopback address: no bearer tokens. */
  mcpNoAuth?: boolean;
}

/**
 * `travsr serve`: runs the daemon in this process until SIGINT, SIGTERM or a Shutdown call.
 * Settings that are the daemon's, not a repository's, come from the user's configuration.
 */
export async function serveDaemon(opts: ServeOptions): Promise<void> {
  const config = loadConfig();
  const v = config.values;
  const logger = daemonLogger(v['log.level'].value === 'warn' ? 'info' : v['log.level'].value);
  let tcpToken: string | undefined;
  if (opts.tokenFile !== undefined) {
    try {
      tcpToken = readFileSync(opts.tokenFile, 'utf8').trim();
    } catch (e) {
      throw new DaemonError(DaemonErrorCode.InvalidOption, `cannot read the token file ${opts.tokenFile}: ${(e as Error).message}`);
    }
  }
  // A bad address is said before the daemon claims anything.
  const oauth = oauthOptionsOf(v);
  const mcpHttp =
    opts.mcpHttp === undefined
      ? undefined
      : { ...parseAddress(opts.mcpHttp), noAuth: opts.mcpNoAuth === true, ...(oauth ? { oauth } : {}) };
  const daemon: RunningDaemon = await startDaemon({
    paths: daemonPaths(),
    logger,
    ...(opts.repos && opts.repos.length > 0 ? { repos: opts.repos } : {}),
    ...(opts.listen !== undefined ? { listen: opts.listen } : {}),
    ...(tcpToken !== undefined ? { tcpToken } : {}),
    ...(mcpHttp ? { mcpHttp } : {}),
    toolWorkers: v['daemon.toolWorkers'].value,
    toolTimeoutMs: 30_000,
    cache: { maxEntries: v['daemon.cacheEntries'].value, maxBytes: v['daemon.cacheMax'].value * 1024 * 1024 },
  });
  const onSignal = (sig: NodeJS.Signals) => {
    logger.log('info', `daemon: ${sig}, stopping`);
    void daemon.stop();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await daemon.stopped;
  logger.log('info', 'daemon: stopped');
  exitWhenLingering(logger);
}

/** How long the process may outlive a completed stop before it is ended. */
const LINGER_MS = 3_000;

/**
 * Everything is closed and stored once the daemon has stopped, so the process ends by itself.
 * Should something still hold it (a handle nobody closed: a bug), the log says what, and the
 * process exits instead of keeping `daemon stop` waiting until it kills it.
 */
function exitWhenLingering(logger: Logger): void {
  const timer = setTimeout(() => {
    logger.log(
      'warn',
      `daemon: still running ${LINGER_MS} ms after it stopped, held by ${process.getActiveResourcesInfo().join(', ')}; exiting`,
    );
    process.exit(0);
  }, LINGER_MS);
  timer.unref();
}
