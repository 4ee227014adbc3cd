import { setTimeout as sleep } from 'node:timers/promises';
import { RegistryError } from './errors.js';

/** How often and how patiently the registry client retries a failed request. */
export interface RetryPolicy {
  /** Retries after the first attempt (so `retries + 1` attempts in all). */
  readonly retries: number;
  /** Delay before the first retry; it doubles for each further one, with ±50 % jitter. */
  readonly baseDelayMs: number;
}

/**
 * Whether a failure is worth another attempt: network errors, timeouts, truncated bodies and
 * 5xx answers are (the transport marks them `retryable`); 4xx answers and verification
 * failures never are.
 */
export function isRetryable(e: unknown): boolean {
  return e instanceof RegistryError && e.details?.retryable === true;
}

/** Delay before retry `n` (0-based): `baseDelayMs · 2^n`, times a random factor in [0.5, 1.5). */
export function backoffMs(policy: RetryPolicy, n: number): number {
  return Math.round(policy.baseDelayMs * 2 ** n * (0.5 + Math.random()));
}

/**
 * Runs `attempt` until it succeeds, fails with an error that is not {@link isRetryable}, or
 * has failed `retries + 1` times; the last error then says how many attempts were made.
 */
export async function withRetries<T>(policy: RetryPolicy, attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt(n);
    } catch (e) {
      if (!isRetryable(e)) throw e;
      if (n >= policy.retries) {
        const err = e as RegistryError;
        if (n === 0) throw err;
        throw new RegistryError(err.code, `${err.message} (gave up after ${n + 1} attempts)`, { ...err.details, attempts: n + 1 });
      }
      await sleep(backoffMs(policy, n));
    }
  }
}
