import { terminalText } from './terminal-text.js';

/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Where host components write diagnostics. The CLI prints them to stderr; tests collect them. */
export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

/**
 * A logger writing `level message` lines to stderr, dropping levels below `minLevel`.
 * Messages carry plugin output and file names, so control characters are shown visibly
 * and continuation lines are indented: a message cannot drive the terminal or forge a line.
 */
export function stderrLogger(minLevel: LogLevel = (process.env.TRAVSR_LOG_LEVEL as LogLevel | undefined) ?? 'warn'): Logger {
  const min = ORDER[minLevel] ?? ORDER.warn;
  return {
    log(level, message) {
      if (ORDER[level] >= min) process.stderr.write(`${level.padEnd(5)} ${terminalText(message).replaceAll('\n', '\n      ')}\n`);
    },
  };
}

/** A logger that keeps every line in memory (for tests and traces). */
export class MemoryLogger implements Logger {
  readonly lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void {
    this.lines.push(fields ? { level, message, fields } : { level, message });
  }
  /** Messages joined by newlines, for assertions and failure output. */
  text(): string {
    return this.lines.map((l) => `${l.level} ${l.message}`).join('\n');
  }
}

/** A logger that discards everything. */
export const silentLogger: Logger = { log() {} };
