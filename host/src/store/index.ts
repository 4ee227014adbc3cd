/** The graph store: SQLite (WAL) at `.travsr/graph.db`, migrations, symbol search. */
export { GraphStore } from './graph-store.js';
export { StoreError, StoreErrorCode } from './errors.js';
export { MigrationRunner, type MigrationReport } from './migration-runner.js';
export { GRAPH_MIGRATIONS, type Migration } from './migrations/index.js';
export { identifierTokens } from './identifier-tokens.js';
export { bestHits } from './best-hits.js';
export { refTargetName } from './file-graph-writer.js';
export { SAME_FILE_CONFIDENCE, REPO_UNIQUE_CONFIDENCE } from './ref-resolver.js';
export type { SynonymOrigin, SynonymPair } from './symbol-index.js';
export type { IndexRunMode, IndexRunRecord, IndexRunStart, IndexRunStatus } from './index-runs.js';
export type * from './types.js';
export type { DefinitionHit, FileHit, FileSearchOptions } from './file-text-index.js';
export type { VectorEntry, VectorHit, VectorModelInfo } from './vector-table.js';
