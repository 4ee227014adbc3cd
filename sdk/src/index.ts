/**
 * @travsr/sdk — write a Travsr language analyzer.
 *
 * - {@link runAnalyzer}: the harness a plugin's entry point calls.
 * - {@link runModel}: the same for a model plugin (an embedder or a cross-encoder).
 * - {@link FileGraphBuilder}: builds one file's nodes, edges and refs with correct VNames.
 * - {@link requireBundle}: load a large CommonJS bundle from the V8 code cache its build stored.
 * - `@travsr/sdk/tree-sitter`: grammar loading and tags queries → Phase A graphs.
 * - `@travsr/sdk/testing`: the conformance kit and golden snapshot tests.
 * - The graph types and vocabularies of `@travsr/protocol` (`Node`, `Edge`, `VName`, `Range`,
 *   `AnalyzeFile`, `NODE_KINDS`, …), so a plugin depends on the SDK alone.
 */
export { runAnalyzer } from './run-analyzer.js';
export { runModel, type ModelDefinition, type ModelSessionInfo } from './run-model.js';
export { log } from './log.js';
export { FileGraphBuilder, CONTAINS_CONFIDENCE, type FileGraphInit, type DefinitionInput, type EdgeOptions } from './graph-builder.js';
export type {
  AnalyzerDefinition,
  AnalyzerContext,
  FileAnalysis,
  FileContext,
  FileResult,
  LogFunction,
  Phase,
  ProgramContext,
  SessionCapabilities,
  SessionInfo,
  SourceFile,
} from './definition.js';
export { filesOfManifest, languageOfFiles } from './language-of-path.js';
export { SourceReadError, type SourceReadErrorCode } from './read-source.js';
export { TravsrError, errorCode } from '@travsr/protocol';
export { LineIndex, strippedBomBytes, UTF8_BOM, type LineIndexOptions, type Utf16Point } from './positions.js';
export { codeCacheFile, loadBundle, requireBundle, type LoadedBundle } from './code-cache.js';
export { PROGRESS_INTERVAL_MS } from './progress.js';
export { SDK_NAME, SDK_VERSION } from './version.js';
export type {
  AnalyzeFile,
  Diagnostic,
  Edge,
  EdgeKind,
  GraphFileParams,
  LogLevel,
  Node,
  NodeId,
  NodeKind,
  PluginManifest,
  Provenance,
  Range,
  UnresolvedRef,
  VName,
} from '@travsr/protocol';
export { EDGE_KINDS, LOG_LEVELS, NODE_KINDS, PROVENANCES } from '@travsr/protocol';
