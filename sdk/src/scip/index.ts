/**
 * @travsr/sdk/scip — read what an external SCIP indexer (scip-go, scip-python, …) wrote, to
 * merge its resolutions into an analyzer's graph.
 *
 * - {@link decodeScipIndex}: the bytes of `index.scip` → metadata, documents, occurrences,
 *   symbol information (a hand-written protobuf reader; unknown fields are skipped).
 * - {@link parseSymbol} / {@link symbolNamespace}: the parts of a SCIP symbol string.
 * - {@link scipDocumentPath}: a document's path in the repository.
 * - {@link scipCharacterToUtf8}: an occurrence's column as the protocol counts it.
 *
 * - {@link runExternalIndexer}: run an indexer in the plugin's sandbox with a time limit and
 *   heartbeats, keeping only the tail of its output.
 * - {@link ScipIndexFile}: an index file read a document at a time (bounded memory).
 * - {@link ScipGraph}: turn an analyzer's Phase A refs into resolved edges from the indexes.
 *
 * Tests can write indexes with `encodeScipIndex` from `@travsr/sdk/testing`.
 */
export {
  decodeScipDocument,
  decodeScipIndex,
  ROLE_DEFINITION,
  ScipFormatError,
  type PositionEncoding,
  type ScipDocument,
  type ScipIndex,
  type ScipOccurrence,
  type ScipRelationship,
  type ScipSymbolInfo,
} from './scip-index.js';
export { parseSymbol, symbolNamespace, type ParsedSymbol, type SymbolSuffix } from './scip-symbol.js';
export { scipDocumentPath } from './document-path.js';
export { scipCharacterToUtf8 } from './positions.js';
export { ScipIndexFile, type ScipDocumentRef, type ScipIndexFileOptions } from './scip-index-file.js';
export { ScipGraph, SCIP_CONFIDENCE, type DefinitionsOf, type MergeStats, type PhaseAGraph, type ScipGraphOptions } from './scip-graph.js';
export { ExternalIndexerError, runExternalIndexer, type ExternalIndexerRun } from './external-indexer.js';
export {
  indexerEnv,
  ScipAnalyzer,
  ScipPhaseBError,
  toolsFor,
  type ScipAnalyzerOptions,
  type ScipIndexer,
  type ScipInvocation,
  type ScipProjectRun,
  type ToolPaths,
} from './scip-analyzer.js';
export { projectDirs, type ProjectDirsOptions } from './project-dirs.js';
export { jvmProxyOptions, startProxyBridge, type ProxyBridge, type ToolProxy } from './proxy-bridge.js';
export {
  broughtIndexer,
  broughtScipIndexers,
  BroughtScipPhaseB,
  PluginPhaseA,
  type BroughtScipIndexer,
  type PhaseAOfFile,
} from './bring-your-own.js';
