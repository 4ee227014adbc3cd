/**
 * Node.js transports of the Travsr protocol: a {@link Connection} over a pair of streams; and
 * the flags the host starts a `runtime: node` plugin with.
 */
export * from './connection.js';
export * from './launch-flags.js';
