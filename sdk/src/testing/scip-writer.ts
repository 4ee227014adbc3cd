// A protobuf writer for the SCIP messages analyzer tests need: an index as scip-go or
// scip-python would write it, for what @travsr/sdk/scip reads. Field numbers are those of
// scip.proto (github.com/scip-code/scip).

/** Bytes of one protobuf message under construction. */
class Message {
  private readonly bytes: number[] = [];

  varint(n: number): this {
    let v = n;
    while (v >= 0x80) {
      this.bytes.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.bytes.push(v);
    return this;
  }

  tag(field: number, wire: number): this {
    return this.varint(field * 8 + wire);
  }

  int(field: number, n: number): this {
    return this.tag(field, 0).varint(n);
  }

  raw(field: number, payload: Uint8Array): this {
    this.tag(field, 2).varint(payload.length);
    for (const b of payload) this.bytes.push(b);
    return this;
  }

  string(field: number, s: string): this {
    return this.raw(field, new TextEncoder().encode(s));
  }

  packed(field: number, ints: number[]): this {
    const inner = new Message();
    for (const n of ints) inner.varint(n);
    return this.raw(field, inner.done());
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** One `Occurrence` (0-based lines and characters, as SCIP writes them). */
export interface ScipOccurrenceSpec {
  /** `[line, startChar, endChar]` on one line, or `[startLine, startChar, endLine, endChar]`. */
  range: [number, number, number] | [number, number, number, number];
  symbol: string;
  definition?: boolean;
  /** Write the range unpacked (one varint field per number), as some writers do. */
  unpacked?: boolean;
}

/** One `SymbolInformation`. */
export interface ScipSymbolSpec {
  symbol: string;
  kind?: number;
  displayName?: string;
  /** Symbols it has an `is_implementation` relationship to (an interface, a base class). */
  implements?: string[];
}

/** One `Document`. */
export interface ScipDocumentSpec {
  /** Relative to the project root, `/`-separated. */
  path: string;
  occurrences: ScipOccurrenceSpec[];
  symbols?: ScipSymbolSpec[];
  /** `language` (default `go`). */
  language?: string;
  /** 1 UTF-8 (scip-go), 2 UTF-16; 0 leaves it unspecified (scip-python). Default 1. */
  positionEncoding?: number;
}

/** What {@link encodeScipIndex} writes. */
export interface ScipIndexSpec {
  /** `metadata.project_root`, a `file:` URI or '' for none. */
  projectRoot: string;
  documents: ScipDocumentSpec[];
  /** `metadata.tool_info.name` (default `scip-go`). */
  toolName?: string;
  /** `metadata.tool_info.version` (default `0.1.26`). */
  toolVersion?: string;
}

/**
 * Encodes a SCIP index: metadata (tool, project root) and documents. Every occurrence also
 * carries a field no reader knows (number 99), so a test checks that unknown fields are skipped.
 *
 * @example
 * ```ts
 * const bytes = encodeScipIndex({
 *   projectRoot: 'file:///repo',
 *   toolName: 'scip-python',
 *   toolVersion: '0.6.6',
 *   documents: [{ path: 'app.py', language: 'python', positionEncoding: 0, occurrences: [{ range: [0, 4, 8], symbol: 'scip-python python app 1 app/main().', definition: true }] }],
 * });
 * ```
 */
export function encodeScipIndex(spec: ScipIndexSpec): Uint8Array {
  const index = new Message();
  const tool = new Message()
    .string(1, spec.toolName ?? 'scip-go')
    .string(2, spec.toolVersion ?? '0.1.26')
    .done();
  index.raw(1, new Message().int(1, 0).raw(2, tool).string(3, spec.projectRoot).int(4, 1).done());
  for (const d of spec.documents) {
    const doc = new Message().string(4, d.language ?? 'go').string(1, d.path);
    for (const o of d.occurrences) {
      const occ = new Message();
      if (o.unpacked) for (const n of o.range) occ.int(1, n);
      else occ.packed(1, o.range);
      occ.string(2, o.symbol);
      if (o.definition) occ.int(3, 1);
      occ.raw(99, new Uint8Array([1, 2, 3])); // a field this reader does not know
      doc.raw(2, occ.done());
    }
    for (const s of d.symbols ?? []) {
      const info = new Message().string(1, s.symbol).string(3, `docs of ${s.symbol}`);
      for (const target of s.implements ?? []) info.raw(4, new Message().string(1, target).int(3, 1).done());
      if (s.kind !== undefined) info.int(5, s.kind);
      if (s.displayName !== undefined) info.string(6, s.displayName);
      doc.raw(3, info.done());
    }
    const encoding = d.positionEncoding ?? 1;
    // proto3 does not write a field at its default value: an unspecified encoding is absent.
    if (encoding !== 0) doc.int(6, encoding);
    index.raw(2, doc.done());
  }
  return index.done();
}
