// A reader for the parts of a SCIP index (github.com/scip-code/scip, scip.proto) that
// analyzers merge: metadata, documents, their occurrences and symbol information. Protobuf's
// wire format is decoded by hand (varints and length-delimited fields) to ship no protobuf
// runtime; every field not listed here is skipped by its wire type, so indexes from newer
// scip.proto revisions still read.
import { TravsrError } from '@travsr/protocol';

/** `Occurrence.symbol_roles` bit of a definition. */
export const ROLE_DEFINITION = 1;

/**
 * `Document.position_encoding`: how `character` offsets count. Some indexers leave it
 * `unspecified` and mean their own convention: scip-python 0.6.6 counts UTF-16 code units.
 */
export type PositionEncoding = 'utf8' | 'utf16' | 'utf32' | 'unspecified';

/** One occurrence of a symbol: 0-based lines, columns in the document's encoding. */
export interface ScipOccurrence {
  startLine: number;
  startChar: number;
  endLine: number;
  endChar: number;
  symbol: string;
  roles: number;
}

/** A relationship of a symbol to another (`is_implementation`: it implements that interface or method). */
export interface ScipRelationship {
  symbol: string;
  isImplementation: boolean;
  isReference: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
}

/** `SymbolInformation`: what the indexer says about a symbol defined in a document. */
export interface ScipSymbolInfo {
  symbol: string;
  /** `SymbolInformation.Kind` (17 Function, 26 Method, 49 Struct, 21 Interface, …; 0 unspecified). */
  kind: number;
  displayName: string;
  relationships: ScipRelationship[];
}

/** One source file of the index. */
export interface ScipDocument {
  /** Path relative to the index's project root, `/`-separated. */
  relativePath: string;
  language: string;
  positionEncoding: PositionEncoding;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInfo[];
}

/** A decoded index. */
export interface ScipIndex {
  /** `metadata.tool_info.name` and `.version`, e.g. `scip-go` `0.1.26`, `scip-python` `0.6.6`. */
  tool: { name: string; version: string };
  /** `metadata.project_root`, a URI (`file:///repo`). */
  projectRoot: string;
  documents: ScipDocument[];
}

/** An index that is not valid protobuf (truncated, not SCIP at all). */
export class ScipFormatError extends TravsrError {
  readonly code = 'SCIP_MALFORMED';
  constructor(message: string) {
    super(message);
    this.name = 'ScipFormatError';
  }
}

const ENCODINGS: Record<number, PositionEncoding> = { 1: 'utf8', 2: 'utf16', 3: 'utf32' };
const utf8 = new TextDecoder('utf-8');

/** A cursor over one protobuf message's bytes. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  get done(): boolean {
    return this.pos >= this.end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new ScipFormatError(`truncated varint at byte ${this.pos}`);
      const b = this.buf[this.pos++]!;
      // Values above 2^53 do not occur in the fields read here; keep the low bits exact.
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new ScipFormatError(`varint longer than 10 bytes at byte ${this.pos}`);
    }
  }

  /** A signed int32 written as a varint (negative numbers take 10 bytes). */
  int32(): number {
    return this.varint() | 0;
  }

  /** The bounds of a length-delimited field's payload; the cursor moves past it. */
  bytes(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end)
      throw new ScipFormatError(`field of ${len} bytes at byte ${start} runs past its message (ends at ${this.end})`);
    this.pos += len;
    return [start, start + len];
  }

  string(): string {
    const [s, e] = this.bytes();
    return utf8.decode(this.buf.subarray(s, e));
  }

  /** A sub-reader over a length-delimited field. */
  message(): Reader {
    const [s, e] = this.bytes();
    return new Reader(this.buf, s, e);
  }

  /** A repeated int32: packed (wire type 2) or one value (wire type 0). */
  int32s(wire: number, into: number[]): void {
    if (wire === 0) {
      into.push(this.int32());
      return;
    }
    const sub = this.message();
    while (!sub.done) into.push(sub.int32());
  }

  skip(wire: number): void {
    switch (wire) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.bytes();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        throw new ScipFormatError(`unsupported wire type ${wire} at byte ${this.pos} (groups are not used by SCIP)`);
    }
    if (this.pos > this.end) throw new ScipFormatError(`truncated fixed-width field before byte ${this.end}`);
  }

  /** Reads the next tag: `[field number, wire type]`. */
  tag(): [number, number] {
    const t = this.varint();
    return [Math.floor(t / 8), t & 7];
  }
}

function readOccurrence(r: Reader): ScipOccurrence | undefined {
  const range: number[] = [];
  let symbol = '';
  let roles = 0;
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1) r.int32s(wire, range);
    else if (field === 2 && wire === 2) symbol = r.string();
    else if (field === 3 && wire === 0) roles = r.int32();
    else r.skip(wire);
  }
  // [startLine, startChar, endChar] on one line, or [startLine, startChar, endLine, endChar].
  if (range.length === 3) return { startLine: range[0]!, startChar: range[1]!, endLine: range[0]!, endChar: range[2]!, symbol, roles };
  if (range.length === 4) return { startLine: range[0]!, startChar: range[1]!, endLine: range[2]!, endChar: range[3]!, symbol, roles };
  return undefined;
}

function readRelationship(r: Reader): ScipRelationship {
  const rel: ScipRelationship = { symbol: '', isImplementation: false, isReference: false, isTypeDefinition: false, isDefinition: false };
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === 2) rel.symbol = r.string();
    else if (field === 2 && wire === 0) rel.isReference = r.varint() !== 0;
    else if (field === 3 && wire === 0) rel.isImplementation = r.varint() !== 0;
    else if (field === 4 && wire === 0) rel.isTypeDefinition = r.varint() !== 0;
    else if (field === 5 && wire === 0) rel.isDefinition = r.varint() !== 0;
    else r.skip(wire);
  }
  return rel;
}

function readSymbolInfo(r: Reader): ScipSymbolInfo {
  const info: ScipSymbolInfo = { symbol: '', kind: 0, displayName: '', relationships: [] };
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === 2) info.symbol = r.string();
    else if (field === 4 && wire === 2) info.relationships.push(readRelationship(r.message()));
    else if (field === 5 && wire === 0) info.kind = r.int32();
    else if (field === 6 && wire === 2) info.displayName = r.string();
    else r.skip(wire);
  }
  return info;
}

function readDocument(r: Reader): ScipDocument {
  const doc: ScipDocument = { relativePath: '', language: '', positionEncoding: 'unspecified', occurrences: [], symbols: [] };
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === 2) doc.relativePath = r.string();
    else if (field === 2 && wire === 2) {
      const occ = readOccurrence(r.message());
      if (occ) doc.occurrences.push(occ);
    } else if (field === 3 && wire === 2) doc.symbols.push(readSymbolInfo(r.message()));
    else if (field === 4 && wire === 2) doc.language = r.string();
    else if (field === 6 && wire === 0) doc.positionEncoding = ENCODINGS[r.int32()] ?? 'unspecified';
    else r.skip(wire);
  }
  return doc;
}

function readMetadata(r: Reader, index: Pick<ScipIndex, 'tool' | 'projectRoot'>): void {
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 2 && wire === 2) {
      const tool = r.message();
      while (!tool.done) {
        const [f, w] = tool.tag();
        if (f === 1 && w === 2) index.tool.name = tool.string();
        else if (f === 2 && w === 2) index.tool.version = tool.string();
        else tool.skip(w);
      }
    } else if (field === 3 && wire === 2) index.projectRoot = r.string();
    else r.skip(wire);
  }
}

/**
 * Decodes one `Document` message (a top-level field 2 of an index): what
 * {@link ScipIndexFile} reads from a file one document at a time.
 * @throws ScipFormatError when the bytes are not a well-formed Document.
 */
export function decodeScipDocument(bytes: Uint8Array): ScipDocument {
  return readDocument(new Reader(bytes));
}

/** Decodes an index's `Metadata` message (top-level field 1) into `index.tool` and `index.projectRoot`. */
export function decodeScipMetadata(bytes: Uint8Array, into: Pick<ScipIndex, 'tool' | 'projectRoot'>): void {
  readMetadata(new Reader(bytes), into);
}

/**
 * Decodes a SCIP index (the bytes of `index.scip`).
 * @throws ScipFormatError when the bytes are not a well-formed protobuf message.
 *
 * @example
 * ```ts
 * const index = decodeScipIndex(readFileSync('index.scip'));
 * for (const doc of index.documents) console.log(doc.relativePath, doc.occurrences.length);
 * ```
 */
export function decodeScipIndex(bytes: Uint8Array): ScipIndex {
  const index: ScipIndex = { tool: { name: '', version: '' }, projectRoot: '', documents: [] };
  const r = new Reader(bytes);
  while (!r.done) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === 2) readMetadata(r.message(), index);
    else if (field === 2 && wire === 2) index.documents.push(readDocument(r.message()));
    else r.skip(wire);
  }
  return index;
}
