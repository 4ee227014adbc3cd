import { RegistryError, RegistryErrorCode } from './errors.js';

/**
 * The overall time limit of one registry operation — fetching a document, or downloading an
 * artifact — retries and resumes included. The idle timeout alone cannot stop a server that
 * sends one byte just often enough; this can. Pass {@link signal} to every request of the
 * operation and call {@link dispose} when it ends.
 *
 * @example
 * ```ts
 * const deadline = new RequestDeadline(120_000, url);
 * try {
 *   const body = await transport.open(path, 0, { signal: deadline.signal });
 * } finally {
 *   deadline.dispose();
 * }
 * ```
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout;
  private readonly startedAt = Date.now();
  private allowedMs: number;

  constructor(
    ms: number,
    private readonly url: string,
  ) {
    this.allowedMs = ms;
    this.timer = this.arm(ms);
  }

  /** The time allowed in all, extensions included. */
  get ms(): number {
    return this.allowedMs;
  }

  /** Allows `ms` more (for a body whose size is only known once its headers came). */
  extend(ms: number): void {
    if (this.controller.signal.aborted || ms <= 0) return;
    clearTimeout(this.timer);
    this.allowedMs += ms;
    this.timer = this.arm(this.startedAt + this.allowedMs - Date.now());
  }

  /** Aborted when the time is up; its `reason` is the `REGISTRY_DEADLINE_EXCEEDED` error. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Stops the clock (the operation ended, one way or the other). */
  dispose(): void {
    clearTimeout(this.timer);
  }

  private arm(ms: number): NodeJS.Timeout {
    const timer = setTimeout(() => this.controller.abort(this.error()), Math.max(0, ms));
    // A deadline never keeps the process alive on its own.
    timer.unref();
    return timer;
  }

  private error(): RegistryError {
    return new RegistryError(
      RegistryErrorCode.RegistryDeadline,
      `${this.url} took longer than the ${formatMs(this.ms)} allowed for it and was stopped: the registry or the network is far too slow, or the server sends just enough to keep the connection open — try again later or use another registry or mirror; if your connection is merely slow, raise the registry time limit`,
      { url: this.url, deadlineMs: this.ms, retryable: false },
    );
  }
}

/**
 * The error a request stopped by a deadline should end with: the deadline's own error when
 * `signal` fired (undici and streams report an abort in several shapes), else `undefined`.
 */
export function deadlineError(signal: AbortSignal | undefined): RegistryError | undefined {
  return signal?.aborted && signal.reason instanceof RegistryError ? signal.reason : undefined;
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
