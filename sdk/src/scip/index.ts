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
 * Tests can write indexes with `encodeScipIndex` from `@travsr/sdk/testing`.
 */
export {
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
