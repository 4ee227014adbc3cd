export * from './trace.js';
export * from './trace-store.js';
export * from './trace-sink.js';
