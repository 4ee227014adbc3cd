import type { Static, TSchema } from '@sinclair/typebox';
import type { METHODS, MethodName } from './messages.js';

/*
 * The types of each method of `METHODS`, by name: what `Connection.request`, `notify`,
 * `onRequest` and `onNotification` take and return. Types only: nothing here exists at run time.
 */

type Methods = typeof METHODS;

/**
 * The methods that get a response: `hello`, `initialize`, `analyze`, `ping`, `shutdown`.
 *
 * @example
 * ```ts
 * const method: RequestMethod = 'analyze'; // 'log' would not compile: it is a notification
 * ```
 */
export type RequestMethod = { [M in MethodName]: Methods[M]['type'] extends 'request' ? M : never }[MethodName];

/**
 * The methods that get no response: `cancel`, `graph/file`, `progress`, `log`.
 *
 * @example
 * ```ts
 * const method: NotificationMethod = 'graph/file';
 * ```
 */
export type NotificationMethod = { [M in MethodName]: Methods[M]['type'] extends 'notification' ? M : never }[MethodName];

/**
 * The params of a method, as its schema in `METHODS` accepts them.
 *
 * @example
 * ```ts
 * const params: ParamsOf<'ping'> = { nonce: 7 };
 * ```
 */
export type ParamsOf<M extends MethodName> = Static<Methods[M]['params']>;

/**
 * The result of a request method, as its schema in `METHODS` accepts it (`unknown` for a
 * notification, which has none).
 *
 * @example
 * ```ts
 * const result: ResultOf<'analyze'> = { files: 1, failed: 0, nodes: 3, edges: 2 };
 * ```
 */
export type ResultOf<M extends MethodName> = Methods[M] extends { result: infer R extends TSchema } ? Static<R> : unknown;
