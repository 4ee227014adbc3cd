/** @travsr/registry — plugin tree hashes today; pack/sign/publish, server and client build on them. */
export * from './tree-hash.js';
