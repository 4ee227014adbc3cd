export * from './trace.js';
export * from './trace-store.js';
