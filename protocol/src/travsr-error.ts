/**
 * The base of every local error in Travsr: an `Error` with a SCREAMING_SNAKE `code`.
 *
 * Each package declares its own subclasses (`ProtocolError`, `RegistryError`, `StoreError`, …)
 * with its own codes; the base adds no property of its own, so a subclass's fields, its JSON
 * and its message are exactly what the subclass defines. The cause of an error goes in the
 * standard `{ cause }` option of `Error`.
 *
 * Recognise an error by its code ({@link errorCode}), not by `instanceof`: a plugin bundles its
 * own copy of this class, and a caller may be handed an error from another copy.
 *
 * Wire errors (`WireException`, numeric JSON-RPC codes carried by a response) are the other
 * family and do not extend this class.
 *
 * @example
 * ```ts
 * export class CacheError extends TravsrError {
 *   override readonly name = 'CacheError';
 *   constructor(
 *     readonly code: 'CACHE_CORRUPT' | 'CACHE_FULL',
 *     message: string,
 *     options?: { cause?: unknown },
 *   ) {
 *     super(message, options);
 *   }
 * }
 * const e = new CacheError('CACHE_FULL', 'the cache is full; run `travsr cache prune`');
 * errorCode(e); // 'CACHE_FULL'
 * ```
 */
export abstract class TravsrError extends Error {
  /** What went wrong, as a SCREAMING_SNAKE code (`FRAME_TOO_LARGE`, `STORE_CORRUPT`, …). */
  abstract readonly code: string;
}

/**
 * The string `code` of anything thrown: a {@link TravsrError}'s code, and also a foreign error's
 * (`ENOENT` from Node, `SQLITE_CORRUPT` from better-sqlite3); `undefined` when there is none or it
 * is not a string (a child process's numeric exit code, a wire error's numeric code).
 *
 * @example
 * ```ts
 * try { await readFile(path); } catch (e) {
 *   if (errorCode(e) === 'ENOENT') return undefined;
 *   throw e;
 * }
 * ```
 */
export function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
