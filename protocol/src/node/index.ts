/** Node.js transports of the Travsr protocol: a {@link Connection} over a pair of streams. */
export * from './connection.js';
