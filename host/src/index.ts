/** The Travsr host as a library: what the CLI is built from. */
export * from './plugins/index.js';
export * from './catalog/lang-toml.js';
export * from './sandbox/index.js';
export * from './traces/index.js';
export * from './store/index.js';
export * from './config/index.js';
export { runIndex, type IndexMode, type IndexSettings, type IndexRequest, type IndexProgress } from './indexer/indexer.js';
export * from './indexer/index-summary.js';
export * from './log/logger.js';
export { HOST_VERSION } from './version.js';
export { travsrHome } from './paths/travsr-home.js';
