import type { Logger } from '../log/logger.js';

/**
 * Splits a plugin's stderr into lines, forwards each to the log under the plugin's name,
 * keeps the last few for error messages, and counts bytes against the output limit.
 */
export class StderrTail {
  private partial = '';
  private readonly tail: string[] = [];
  bytes = 0;
  lines = 0;

  constructor(
    private readonly label: string,
    private readonly logger: Logger,
    private readonly keep = 20,
    private readonly maxLineChars = 2000,
  ) {}

  /** Feeds a chunk; returns the total bytes seen so far. */
  push(chunk: Buffer): number {
    this.bytes += chunk.length;
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLineChars) {
      parts.push(this.partial);
      this.partial = '';
    }
    for (const p of parts) this.line(p);
    return this.bytes;
  }

  /** Flushes a trailing partial line. */
  end(): void {
    if (this.partial) this.line(this.partial);
    this.partial = '';
  }

  /** The last lines seen. */
  lastLines(): string[] {
    return [...this.tail];
  }

  private line(raw: string): void {
    const line = raw.length > this.maxLineChars ? `${raw.slice(0, this.maxLineChars)}…` : raw.replace(/\r$/, '');
    this.lines++;
    this.tail.push(line);
    if (this.tail.length > this.keep) this.tail.shift();
    this.logger.log('info', `[${this.label}] ${line}`);
  }
}
