import { LOG_LEVELS, type LogLevel } from '@travsr/protocol';

type LogSink = (level: LogLevel, message: string, data?: unknown) => void;

let sink: LogSink | undefined;

/** Installs (or removes) the function that turns {@link log} calls into `log` notifications. */
export function setLogSink(next: LogSink | undefined): void {
  sink = next;
}

/** Writes one log line to stderr, which the host captures and forwards to its own log. */
export function logToStderr(level: LogLevel, message: string, data?: unknown): void {
  let line = `[${level}] ${message}`;
  if (data !== undefined) {
    try {
      line += ` ${JSON.stringify(data)}`;
    } catch {
      line += ' [unserializable data]';
    }
  }
  process.stderr.write(`${line.replace(/\n/g, '\\n')}\n`);
}

/**
 * Sends a `log` notification to the host once the handshake is done (before it, or when
 * the notification cannot be sent, the line goes to stderr, which the host also captures).
 * `data` is sent as plain JSON data; anything else in it is dropped.
 *
 * Never write to stdout in a plugin: stdout carries the protocol frames. The harness
 * redirects `console.log` to stderr for you.
 *
 * @example
 * ```ts
 * import { log } from '@travsr/sdk';
 * log('info', 'loaded grammar', { language: 'lua' });
 * ```
 */
export function log(level: LogLevel, message: string, data?: unknown): void {
  const safeLevel: LogLevel = (LOG_LEVELS as readonly string[]).includes(level) ? level : 'info';
  if (sink) sink(safeLevel, message, data);
  else logToStderr(safeLevel, message, data);
}
