// A protobuf writer for the SCIP messages the tests need: an index as scip-go would write it.
// Field numbers are those of scip.proto (github.com/scip-code/scip).

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

export interface OccurrenceSpec {
  range: [number, number, number] | [number, number, number, number];
  symbol: string;
  definition?: boolean;
  /** Write the range unpacked (one varint field per number), as some writers do. */
  unpacked?: boolean;
}

export interface SymbolSpec {
  symbol: string;
  kind?: number;
  displayName?: string;
  implements?: string[];
}

export interface DocumentSpec {
  path: string;
  occurrences: OccurrenceSpec[];
  symbols?: SymbolSpec[];
  /** 1 UTF-8 (scip-go), 2 UTF-16. */
  positionEncoding?: number;
}

/** Encodes an index: metadata (tool scip-go, project root) and documents. */
export function encodeScipIndex(spec: { projectRoot: string; documents: DocumentSpec[]; toolVersion?: string }): Uint8Array {
  const index = new Message();
  const tool = new Message()
    .string(1, 'scip-go')
    .string(2, spec.toolVersion ?? '0.1.26')
    .done();
  index.raw(1, new Message().int(1, 0).raw(2, tool).string(3, spec.projectRoot).int(4, 1).done());
  for (const d of spec.documents) {
    const doc = new Message().string(4, 'go').string(1, d.path);
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
    doc.int(6, d.positionEncoding ?? 1);
    index.raw(2, doc.done());
  }
  return index.done();
}
