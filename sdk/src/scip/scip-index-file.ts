import { open, type FileHandle } from 'node:fs/promises';
import { decodeScipDocument, decodeScipMetadata, ScipFormatError, type ScipDocument, type ScipIndex } from './scip-index.js';

/** Where one document's bytes lie in an index file. */
export interface ScipDocumentRef {
  /** The document's path, relative to the index's project root. */
  readonly relativePath: string;
  /** Byte offset of the Document message's payload in the file. */
  readonly offset: number;
  /** Its length in bytes. */
  readonly length: number;
}

/** Options of {@link ScipIndexFile.open}. */
export interface ScipIndexFileOptions {
  /**
   * Called with each document as the scan decodes it, one at a time, before the next is read:
   * the place to collect what must be known of every document (its definitions, say) without
   * keeping the documents. `meta` is the index's metadata as read so far (every SCIP producer
   * writes it first, so its project root is known from the first document on).
   */
  onDocument?: (doc: ScipDocument, ref: ScipDocumentRef, meta: Pick<ScipIndex, 'tool' | 'projectRoot'>) => void | Promise<void>;
  /** The largest document read (default 1 GiB): a bigger one is refused as malformed. */
  maxDocumentBytes?: number;
}

const DEFAULT_MAX_DOCUMENT = 1 << 30;
/** Tag and length varints are at most 10 bytes each. */
const HEADER_BYTES = 20;

/**
 * A SCIP index read from its file a document at a time, so an index of gigabytes is scanned
 * with memory for its largest document, not for the whole: {@link open} walks the top-level
 * fields once (metadata decoded, each document decoded, handed to `onDocument` and dropped,
 * its place remembered), and {@link read} decodes a document again from its place when it is
 * needed. Close it when done.
 *
 * @example
 * ```ts
 * const file = await ScipIndexFile.open('/tmp/index.scip', { onDocument: (doc) => count += doc.occurrences.length });
 * const doc = await file.read(file.documents[0]!);
 * await file.close();
 * ```
 */
export class ScipIndexFile {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    /** `metadata.tool_info`. */
    readonly tool: ScipIndex['tool'],
    /** `metadata.project_root`, a URI. */
    readonly projectRoot: string,
    /** Every document of the index, in file order. */
    readonly documents: readonly ScipDocumentRef[],
    private readonly maxDocumentBytes: number,
  ) {}

  /**
   * Scans the index at `path`.
   * @throws ScipFormatError when the file is not a well-formed SCIP index (truncated, a field
   *   running past the end, a document above `maxDocumentBytes`); Node's error when it cannot be read.
   */
  static async open(path: string, options: ScipIndexFileOptions = {}): Promise<ScipIndexFile> {
    const handle = await open(path, 'r');
    const maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT;
    try {
      const size = (await handle.stat()).size;
      const meta: Pick<ScipIndex, 'tool' | 'projectRoot'> = { tool: { name: '', version: '' }, projectRoot: '' };
      const documents: ScipDocumentRef[] = [];
      const header = Buffer.alloc(HEADER_BYTES);
      let buffer = Buffer.alloc(0);
      let pos = 0;
      while (pos < size) {
        const { bytesRead } = await handle.read(header, 0, Math.min(HEADER_BYTES, size - pos), pos);
        const cursor = { pos: 0, end: bytesRead, at: pos };
        const tag = varint(header, cursor);
        const field = Math.floor(tag / 8);
        const wire = tag & 7;
        if (wire !== 2) {
          skipScalar(wire, header, cursor);
          pos += cursor.pos;
          if (pos > size) throw new ScipFormatError(`${path}: truncated field ${field} at byte ${cursor.at}`);
          continue;
        }
        const length = varint(header, cursor);
        const start = pos + cursor.pos;
        if (start + length > size)
          throw new ScipFormatError(
            `${path}: field ${field} of ${length} bytes at byte ${start} runs past the end of the file (${size} bytes): the index is truncated`,
          );
        pos = start + length;
        if (field !== 1 && field !== 2) continue; // external symbols and future fields: skipped unread
        if (field === 2 && length > maxDocumentBytes)
          throw new ScipFormatError(`${path}: a document of ${length} bytes at byte ${start} is above the limit of ${maxDocumentBytes}`);
        if (buffer.length < length) buffer = Buffer.alloc(Math.max(length, Math.min(buffer.length * 2, maxDocumentBytes)));
        await readFully(handle, buffer, length, start);
        const bytes = buffer.subarray(0, length);
        if (field === 1) {
          decodeScipMetadata(bytes, meta);
          continue;
        }
        const doc = decodeScipDocument(bytes);
        const ref: ScipDocumentRef = { relativePath: doc.relativePath, offset: start, length };
        documents.push(ref);
        await options.onDocument?.(doc, ref, meta);
      }
      return new ScipIndexFile(path, handle, meta.tool, meta.projectRoot, documents, maxDocumentBytes);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** Decodes the document at `ref` (one of {@link documents}) again. */
  async read(ref: ScipDocumentRef): Promise<ScipDocument> {
    if (ref.length > this.maxDocumentBytes) throw new ScipFormatError(`${this.path}: a document of ${ref.length} bytes is above the limit`);
    const bytes = Buffer.alloc(ref.length);
    await readFully(this.handle, bytes, ref.length, ref.offset);
    return decodeScipDocument(bytes);
  }

  /** Closes the file; {@link read} fails after it. */
  async close(): Promise<void> {
    await this.handle.close();
  }
}

async function readFully(handle: FileHandle, into: Buffer, length: number, position: number): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(into, done, length - done, position + done);
    if (bytesRead === 0) throw new ScipFormatError(`unexpected end of file at byte ${position + done}: the index is truncated`);
    done += bytesRead;
  }
}

/** A varint from `buf` at `cursor.pos` (below `cursor.end`); moves the cursor past it. */
function varint(buf: Buffer, cursor: { pos: number; end: number; at: number }): number {
  let result = 0;
  for (let shift = 0; shift <= 63; shift += 7) {
    if (cursor.pos >= cursor.end) throw new ScipFormatError(`truncated varint at byte ${cursor.at + cursor.pos}: the index is truncated`);
    const b = buf[cursor.pos++]!;
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return result;
  }
  throw new ScipFormatError(`varint longer than 10 bytes at byte ${cursor.at + cursor.pos}`);
}

/** Moves the cursor past the payload of a field of wire type 0, 1 or 5. */
function skipScalar(wire: number, buf: Buffer, cursor: { pos: number; end: number; at: number }): void {
  if (wire === 0) varint(buf, cursor);
  else if (wire === 1) cursor.pos += 8;
  else if (wire === 5) cursor.pos += 4;
  else throw new ScipFormatError(`unsupported wire type ${wire} at byte ${cursor.at} (groups are not used by SCIP)`);
}
