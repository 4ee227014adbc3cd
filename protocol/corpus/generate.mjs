#!/usr/bin/env node
/**
 * Writes the shared frame corpus, frames/valid/*.json and frames/rejected/*.json, from the
 * readable definitions below. See README.md beside this file for the file format.
 *
 *   node protocol/corpus/generate.mjs           rewrite the corpus files
 *   node protocol/corpus/generate.mjs --check   exit 1 if the files on disk differ from the definitions
 *
 * Deliberately dependency-free: its MessagePack writer is written here, independently of the
 * msgpackr-based codec the corpus tests, and it writes every width explicitly where a case is
 * about a width. A few frames are additionally given as hand-written hex (HAND_WRITTEN); the
 * generator refuses to run if its own writer does not reproduce them byte for byte, so the
 * writer is itself checked against bytes nobody computed with it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, 'frames');

// ---------------------------------------------------------------------------------------
// A small MessagePack writer. Every function returns a Buffer holding one encoded value.
// ---------------------------------------------------------------------------------------

const byte = (...bytes) => Buffer.from(bytes);
const cat = (...parts) => Buffer.concat(parts);
const uint = (n, size) => {
  const b = Buffer.alloc(size);
  if (size === 8) b.writeBigUInt64BE(BigInt(n));
  else b.writeUIntBE(n, 0, size);
  return b;
};
const sint = (n, size) => {
  const b = Buffer.alloc(size);
  if (size === 8) b.writeBigInt64BE(BigInt(n));
  else b.writeIntBE(n, 0, size);
  return b;
};

const W = {
  nil: () => byte(0xc0),
  bool: (v) => byte(v ? 0xc3 : 0xc2),
  posFixint: (n) => (check(n >= 0 && n <= 0x7f), byte(n)),
  negFixint: (n) => (check(n >= -32 && n < 0), byte(0x100 + n)),
  u8: (n) => cat(byte(0xcc), uint(n, 1)),
  u16: (n) => cat(byte(0xcd), uint(n, 2)),
  u32: (n) => cat(byte(0xce), uint(n, 4)),
  u64: (n) => cat(byte(0xcf), uint(n, 8)),
  i8: (n) => cat(byte(0xd0), sint(n, 1)),
  i16: (n) => cat(byte(0xd1), sint(n, 2)),
  i32: (n) => cat(byte(0xd2), sint(n, 4)),
  i64: (n) => cat(byte(0xd3), sint(n, 8)),
  f32: (x) => {
    const b = Buffer.alloc(5);
    b[0] = 0xca;
    b.writeFloatBE(x, 1);
    return b;
  },
  f64: (x) => {
    const b = Buffer.alloc(9);
    b[0] = 0xcb;
    b.writeDoubleBE(x, 1);
    return b;
  },
  fixstr: (s) => {
    const u = Buffer.from(s, 'utf8');
    check(u.length <= 31);
    return cat(byte(0xa0 | u.length), u);
  },
  str8: (s) => strWith(0xd9, 1, s),
  str16: (s) => strWith(0xda, 2, s),
  str32: (s) => strWith(0xdb, 4, s),
  bin8: (hex) => binWith(0xc4, 1, hex),
  bin16: (hex) => binWith(0xc5, 2, hex),
  bin32: (hex) => binWith(0xc6, 4, hex),
  fixarray: (items) => (check(items.length <= 15), cat(byte(0x90 | items.length), ...items)),
  array16: (items) => cat(byte(0xdc), uint(items.length, 2), ...items),
  array32: (items) => cat(byte(0xdd), uint(items.length, 4), ...items),
  /** `entries`: [keyBytes, valueBytes][] */
  fixmap: (entries) => (check(entries.length <= 15), cat(byte(0x80 | entries.length), ...entries.flat())),
  map16: (entries) => cat(byte(0xde), uint(entries.length, 2), ...entries.flat()),
  map32: (entries) => cat(byte(0xdf), uint(entries.length, 4), ...entries.flat()),
  /** Any extension: fixext 1/2/4/8/16 when the data has that size, else ext 8/16/32. */
  ext: (type, dataHex, forceWidth) => {
    const data = Buffer.from(dataHex, 'hex');
    const fix = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 }[data.length];
    const t = sint(type, 1);
    if (fix !== undefined && forceWidth === undefined) return cat(byte(fix), t, data);
    const width = forceWidth ?? (data.length <= 0xff ? 8 : data.length <= 0xffff ? 16 : 32);
    const head = { 8: [0xc7, 1], 16: [0xc8, 2], 32: [0xc9, 4] }[width];
    return cat(byte(head[0]), uint(data.length, head[1]), t, data);
  },
};

function strWith(token, size, s) {
  const u = Buffer.from(s, 'utf8');
  return cat(byte(token), uint(u.length, size), u);
}
function binWith(token, size, hex) {
  const b = Buffer.from(hex, 'hex');
  return cat(byte(token), uint(b.length, size), b);
}
function check(ok) {
  if (!ok) throw new Error('corpus definition out of range');
}

/** Bytes written as they are, standing for `value` in the decoded message. */
class Raw {
  constructor(bytes, value) {
    this.bytes = bytes;
    this.value = value;
  }
}
/** `as(W.u16(7), 7)`: encode this part with exactly these bytes; it decodes to `value`. */
const as = (bytes, value) => new Raw(bytes, value);
/** Bytes with no decoded value, for rejected frames. */
const raw = (bytes) => new Raw(bytes, undefined);
/** A MessagePack bin value as it appears in a corpus file's expected message. */
const bin = (hex) => ({ $bin: hex });

/** The shortest encoding of a JSON-like value (map keys in insertion order). */
function enc(v) {
  if (v instanceof Raw) return v.bytes;
  if (v === null) return W.nil();
  if (typeof v === 'boolean') return W.bool(v);
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return W.f64(v);
    if (v >= 0) return v <= 0x7f ? W.posFixint(v) : v <= 0xff ? W.u8(v) : v <= 0xffff ? W.u16(v) : v <= 0xffffffff ? W.u32(v) : W.u64(v);
    return v >= -32 ? W.negFixint(v) : v >= -0x80 ? W.i8(v) : v >= -0x8000 ? W.i16(v) : v >= -0x80000000 ? W.i32(v) : W.i64(v);
  }
  if (typeof v === 'string') {
    const n = Buffer.byteLength(v, 'utf8');
    return n <= 31 ? W.fixstr(v) : n <= 0xff ? W.str8(v) : n <= 0xffff ? W.str16(v) : W.str32(v);
  }
  if (Array.isArray(v)) {
    const items = v.map(enc);
    return items.length <= 15 ? W.fixarray(items) : items.length <= 0xffff ? W.array16(items) : W.array32(items);
  }
  if (typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '$bin') {
      const n = v.$bin.length / 2;
      return n <= 0xff ? W.bin8(v.$bin) : n <= 0xffff ? W.bin16(v.$bin) : W.bin32(v.$bin);
    }
    const entries = keys.map((k) => [enc(k), enc(v[k])]);
    return entries.length <= 15 ? W.fixmap(entries) : entries.length <= 0xffff ? W.map16(entries) : W.map32(entries);
  }
  throw new Error(`cannot encode ${typeof v}`);
}

/** The decoded value of a definition: Raw parts replaced by the value they stand for. */
function plain(v) {
  if (v instanceof Raw) return v.value;
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}
function usesRaw(v) {
  if (v instanceof Raw) return true;
  if (Array.isArray(v)) return v.some(usesRaw);
  if (v !== null && typeof v === 'object') return Object.values(v).some(usesRaw);
  return false;
}

/** A frame: 4-byte big-endian length, then the body. */
const frame = (body) => cat(uint(body.length, 4), body);
const clone = (v) => structuredClone(v);

// ---------------------------------------------------------------------------------------
// Messages of a realistic session, reused by many cases.
// ---------------------------------------------------------------------------------------

const CORPUS = 'github.com/acme/shop';
const vname = (path, signature) => ({ corpus: CORPUS, root: '', path, language: 'python', signature });
const FILE = vname('src/cart.py', '');
const CART = vname('src/cart.py', 'Cart');
const TOTAL = vname('src/cart.py', 'Cart.total');
const PRICE = vname('src/cart.py', 'Cart._price');

const GRAPH_FILE = {
  kind: 'notification',
  method: 'graph/file',
  params: {
    requestId: 3,
    path: 'src/cart.py',
    language: 'python',
    phase: 'A',
    status: 'ok',
    nodes: [
      { vname: FILE, kind: 'file', name: 'cart.py' },
      {
        vname: CART,
        kind: 'class',
        name: 'Cart',
        qualifiedName: 'cart.Cart',
        range: { startLine: 3, startCol: 0, endLine: 14, endCol: 0 },
      },
      {
        vname: TOTAL,
        kind: 'method',
        name: 'total',
        qualifiedName: 'cart.Cart.total',
        range: { startLine: 8, startCol: 4, endLine: 11, endCol: 52 },
        skeleton: 'def total(self) -> Decimal:\n    """Sum of all line prices."""',
      },
      {
        vname: PRICE,
        kind: 'method',
        name: '_price',
        qualifiedName: 'cart.Cart._price',
        range: { startLine: 12, startCol: 4, endLine: 14, endCol: 0 },
      },
    ],
    edges: [
      { src: FILE, dst: CART, kind: 'contains', confidence: 1, provenance: 'phase-a' },
      { src: CART, dst: TOTAL, kind: 'contains', confidence: 1, provenance: 'phase-a' },
      { src: CART, dst: PRICE, kind: 'contains', confidence: 1, provenance: 'phase-a' },
      { src: TOTAL, dst: PRICE, kind: 'calls', confidence: 0.9, provenance: 'phase-a' },
    ],
    refs: [{ src: TOTAL, kind: 'calls', name: 'sum', range: { startLine: 11, startCol: 15, endLine: 11, endCol: 18 } }],
    diagnostics: [],
  },
};

const PING = { kind: 'request', id: 4, method: 'ping', params: { nonce: 42 } };
const log = (data) => ({ kind: 'notification', method: 'log', params: { level: 'debug', message: 'corpus', data } });
/** A log notification whose `data` is encoded with exactly `bytes`. */
const logWith = (bytes, value) => log(as(bytes, value));

// ---------------------------------------------------------------------------------------
// Hand-written frames: hex typed in by hand from the MessagePack spec, not computed.
// The generator checks that its writer produces the same bytes from `message`.
// ---------------------------------------------------------------------------------------

const HAND_WRITTEN = [
  {
    name: 'hand-ping-request',
    description:
      'hand-written: {"kind":"request","id":1,"method":"ping","params":{}} — a fixmap of 4 entries (0x84), fixstr keys, id as positive fixint 0x01, params an empty fixmap 0x80',
    hex:
      '00000026' + // length 38
      '84' + // fixmap, 4 entries
      'a4' +
      '6b696e64' +
      'a7' +
      '72657175657374' + // "kind": "request"
      'a2' +
      '6964' +
      '01' + // "id": 1
      'a6' +
      '6d6574686f64' +
      'a4' +
      '70696e67' + // "method": "ping"
      'a6' +
      '706172616d73' +
      '80', // "params": {}
    message: { kind: 'request', id: 1, method: 'ping', params: {} },
    schema: 'ping.params',
  },
  {
    name: 'hand-ping-response',
    description: 'hand-written: {"kind":"response","id":1,"result":{"nonce":-1}} — nonce as negative fixint 0xff',
    hex:
      '00000022' + // length 34
      '83' + // fixmap, 3 entries
      'a4' +
      '6b696e64' +
      'a8' +
      '726573706f6e7365' + // "kind": "response"
      'a2' +
      '6964' +
      '01' + // "id": 1
      'a6' +
      '726573756c74' +
      '81' +
      'a5' +
      '6e6f6e6365' +
      'ff', // "result": {"nonce": -1}
    message: { kind: 'response', id: 1, result: { nonce: -1 } },
    schema: 'ping.result',
  },
  {
    name: 'hand-cancel-notification',
    description: 'hand-written: {"kind":"notification","method":"cancel","params":{"id":300}} — id as uint16 0xcd 0x012c',
    hex:
      '0000002f' + // length 47
      '83' +
      'a4' +
      '6b696e64' +
      'ac' +
      '6e6f74696669636174696f6e' + // "kind": "notification"
      'a6' +
      '6d6574686f64' +
      'a6' +
      '63616e63656c' + // "method": "cancel"
      'a6' +
      '706172616d73' +
      '81' +
      'a2' +
      '6964' +
      'cd012c', // "params": {"id": 300}
    message: { kind: 'notification', method: 'cancel', params: { id: 300 } },
    schema: 'cancel.params',
  },
  {
    name: 'hand-two-frames',
    description: 'hand-written: two frames back to back in one stream, the integers 1 and -1 (frame layer only: not envelopes)',
    hex: '0000000101' + '00000001ff',
    messages: [1, -1],
  },
];

// ---------------------------------------------------------------------------------------
// Valid frames.
// ---------------------------------------------------------------------------------------

/** @type {{name: string, description: string, message?: unknown, messages?: unknown[], bytes?: Buffer, schema?: string, maxFrameBytes?: number}[]} */
const VALID = [
  // one of each method, in session order
  {
    name: 'hello-request',
    description: 'hello, the first frame of every session (host → plugin)',
    message: {
      kind: 'request',
      id: 1,
      method: 'hello',
      params: { protocolVersions: ['1'], host: { name: 'travsr', version: '0.1.0' }, maxFrameBytes: 16777216 },
    },
    schema: 'hello.params',
  },
  {
    name: 'hello-response',
    description: 'the plugin answers hello with the version it chose, its id and capabilities',
    message: {
      kind: 'response',
      id: 1,
      result: {
        protocolVersion: '1',
        plugin: { id: 'example-python', version: '1.2.0' },
        sdk: { name: 'travsr-python-sketch', version: '0.0.1' },
        capabilities: { phases: ['A'], cancellation: true, progress: true },
        maxFrameBytes: 4194304,
      },
    },
    schema: 'hello.result',
  },
  {
    name: 'hello-error-unsupported-version',
    description: 'a plugin that speaks none of the offered versions answers hello with error -32001',
    message: {
      kind: 'response',
      id: 1,
      error: { code: -32001, message: 'no common protocol version: host offers 7, plugin speaks 1', data: { supported: ['1'] } },
    },
    schema: 'envelope',
  },
  {
    name: 'initialize-request',
    description: 'initialize: where the repository is and the corpus of every VName',
    message: {
      kind: 'request',
      id: 2,
      method: 'initialize',
      params: { root: '/repo', corpus: CORPUS, options: { maxFileBytes: 1048576, skipTests: true } },
    },
    schema: 'initialize.params',
  },
  {
    name: 'initialize-response',
    description: 'initialize result: the languages the plugin will analyze',
    message: { kind: 'response', id: 2, result: { languages: ['python'] } },
    schema: 'initialize.result',
  },
  {
    name: 'analyze-request',
    description: 'analyze two files in phase A',
    message: {
      kind: 'request',
      id: 3,
      method: 'analyze',
      params: {
        phase: 'A',
        files: [
          { path: 'src/cart.py', language: 'python' },
          { path: 'src/broken.py', language: 'python' },
        ],
      },
    },
    schema: 'analyze.params',
  },
  {
    name: 'graph-file-ok',
    description: 'graph/file: one analyzed file with nodes, edges (float64 confidence 0.9), an unresolved ref',
    message: GRAPH_FILE,
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-failed',
    description: 'graph/file for a file the plugin could not analyze: status failed, no nodes, a diagnostic',
    message: {
      kind: 'notification',
      method: 'graph/file',
      params: {
        requestId: 3,
        path: 'src/broken.py',
        language: 'python',
        phase: 'A',
        status: 'failed',
        nodes: [],
        edges: [],
        diagnostics: [
          { severity: 'error', message: 'invalid syntax', code: 'E999', range: { startLine: 2, startCol: 7, endLine: 2, endCol: 8 } },
        ],
      },
    },
    schema: 'graph-file.params',
  },
  {
    name: 'progress-notification',
    description: 'progress of an analyze request',
    message: { kind: 'notification', method: 'progress', params: { requestId: 3, done: 1, total: 2, message: 'src/cart.py' } },
    schema: 'progress.params',
  },
  {
    name: 'log-notification',
    description: 'a log line from the plugin',
    message: { kind: 'notification', method: 'log', params: { level: 'info', message: 'parsed 2 files' } },
    schema: 'log.params',
  },
  {
    name: 'analyze-response',
    description: 'analyze answers once every graph/file of the request was sent',
    message: { kind: 'response', id: 3, result: { files: 2, failed: 1, nodes: 4, edges: 4 } },
    schema: 'analyze.result',
  },
  {
    name: 'cancel-notification',
    description: 'cancel names the request to stop',
    message: { kind: 'notification', method: 'cancel', params: { id: 3 } },
    schema: 'cancel.params',
  },
  {
    name: 'cancelled-response',
    description: 'a cancelled request still gets its one response: error -32800',
    message: { kind: 'response', id: 3, error: { code: -32800, message: 'analyze was cancelled' } },
    schema: 'envelope',
  },
  {
    name: 'embed-request',
    description: 'a model plugin is asked for the vectors of two texts',
    message: { kind: 'request', id: 7, method: 'embed', params: { texts: ['def parse_http_date(value):', 'why are dates parsed wrong'] } },
    schema: 'embed.params',
  },
  {
    name: 'embed-response',
    description: 'one unit vector per text, in order',
    message: {
      kind: 'response',
      id: 7,
      result: {
        vectors: [
          [0.6, 0.8, 0],
          [0, 0.6, 0.8],
        ],
      },
    },
    schema: 'embed.result',
  },
  {
    name: 'score-request',
    description: 'a cross-encoder is asked to score two candidates for a query',
    message: {
      kind: 'request',
      id: 8,
      method: 'score',
      params: { query: 'stale cache', candidates: ['def evict(self, key):', 'def parse(text):'] },
    },
    schema: 'score.params',
  },
  {
    name: 'score-response',
    description: 'one score per candidate, higher is more relevant',
    message: { kind: 'response', id: 8, result: { scores: [3.25, -1.5] } },
    schema: 'score.result',
  },
  { name: 'ping-request', description: 'ping with a nonce', message: PING, schema: 'ping.params' },
  {
    name: 'ping-request-no-params',
    description: 'a request without params: treated as an empty map',
    message: { kind: 'request', id: 5, method: 'ping' },
    schema: 'ping.params',
  },
  {
    name: 'ping-response',
    description: 'ping echoes the nonce',
    message: { kind: 'response', id: 4, result: { nonce: 42 } },
    schema: 'ping.result',
  },
  {
    name: 'shutdown-request',
    description: 'shutdown with empty params',
    message: { kind: 'request', id: 6, method: 'shutdown', params: {} },
    schema: 'shutdown.params',
  },
  {
    name: 'shutdown-response',
    description: 'shutdown answers with an empty map, then the plugin exits',
    message: { kind: 'response', id: 6, result: {} },
    schema: 'shutdown.result',
  },
  {
    name: 'method-not-found-response',
    description: 'an unknown method is answered with -32601',
    message: { kind: 'response', id: 7, error: { code: -32601, message: 'method not found: frobnicate' } },
    schema: 'envelope',
  },
  {
    name: 'string-id-request',
    description: 'request ids may be strings (1–128 characters)',
    message: { kind: 'request', id: 'req-7', method: 'ping', params: { nonce: 7 } },
    schema: 'ping.params',
  },
  {
    name: 'invalid-params-response-with-data',
    description: 'an error response with a string id and a data member',
    message: {
      kind: 'response',
      id: 'req-8',
      error: {
        code: -32602,
        message: 'analyze params failed validation: /phase must be equal to one of the allowed values',
        data: { path: '/phase' },
      },
    },
    schema: 'envelope',
  },

  // every integer width (inside ping requests and responses)
  {
    name: 'int-positive-fixint',
    description: 'id 127 as positive fixint 0x7f (0x40–0x7f are integers, never msgpackr records)',
    message: { kind: 'request', id: as(W.posFixint(127), 127), method: 'ping', params: {} },
    schema: 'ping.params',
  },
  {
    name: 'int-negative-fixint',
    description: 'nonce -32 as negative fixint 0xe0',
    message: { kind: 'request', id: 10, method: 'ping', params: { nonce: as(W.negFixint(-32), -32) } },
    schema: 'ping.params',
  },
  {
    name: 'int-uint8',
    description: 'id 200 as uint8 0xcc',
    message: { kind: 'request', id: as(W.u8(200), 200), method: 'ping', params: {} },
    schema: 'ping.params',
  },
  {
    name: 'int-uint16',
    description: 'id 4660 as uint16 0xcd',
    message: { kind: 'request', id: as(W.u16(0x1234), 0x1234), method: 'ping', params: {} },
    schema: 'ping.params',
  },
  {
    name: 'int-uint32',
    description: 'id 2309737967 as uint32 0xce',
    message: { kind: 'request', id: as(W.u32(0x89abcdef), 0x89abcdef), method: 'ping', params: {} },
    schema: 'ping.params',
  },
  {
    name: 'int-uint64',
    description: 'id 2^53-1 as uint64 0xcf, the largest id allowed',
    message: { kind: 'request', id: as(W.u64(2 ** 53 - 1), 2 ** 53 - 1), method: 'ping', params: {} },
    schema: 'ping.params',
  },
  {
    name: 'int-int8',
    description: 'nonce -100 as int8 0xd0',
    message: { kind: 'response', id: 10, result: { nonce: as(W.i8(-100), -100) } },
    schema: 'ping.result',
  },
  {
    name: 'int-int16',
    description: 'nonce -30000 as int16 0xd1',
    message: { kind: 'response', id: 10, result: { nonce: as(W.i16(-30000), -30000) } },
    schema: 'ping.result',
  },
  {
    name: 'int-int32',
    description: 'nonce -2000000000 as int32 0xd2',
    message: { kind: 'response', id: 10, result: { nonce: as(W.i32(-2000000000), -2000000000) } },
    schema: 'ping.result',
  },
  {
    name: 'int-int64',
    description: 'nonce -(2^53-1) as int64 0xd3',
    message: { kind: 'response', id: 10, result: { nonce: as(W.i64(-(2 ** 53 - 1)), -(2 ** 53 - 1)) } },
    schema: 'ping.result',
  },
  {
    name: 'int-wide-encodings-of-small-values',
    description: 'small values in wider encodings than needed must be accepted: id 1 as uint64, nonce 5 as int32',
    message: { kind: 'request', id: as(W.u64(1), 1), method: 'ping', params: { nonce: as(W.i32(5), 5) } },
    schema: 'ping.params',
  },
  {
    name: 'int-as-integral-float64',
    description:
      'an integral float64 (2.0) where an integer is expected is accepted; the reference encoder writes integers beyond 32 bits as float64',
    message: { kind: 'response', id: 10, result: { nonce: as(W.f64(2), 2) } },
    schema: 'ping.result',
  },

  // floats, strings, bin, containers
  {
    name: 'float64-confidence',
    description: 'edge confidence 0.25 as float64 0xcb',
    message: (() => {
      const m = clone(GRAPH_FILE);
      m.params.edges[3].confidence = as(W.f64(0.25), 0.25);
      return m;
    })(),
    schema: 'graph-file.params',
  },
  {
    name: 'float32-confidence',
    description: 'edge confidence 0.5 as float32 0xca: receivers accept float32 (senders should write float64)',
    message: (() => {
      const m = clone(GRAPH_FILE);
      m.params.edges[3].confidence = as(W.f32(0.5), 0.5);
      return m;
    })(),
    schema: 'graph-file.params',
  },
  {
    name: 'str-fixstr',
    description: 'log message of 31 bytes as fixstr 0xbf',
    message: { kind: 'notification', method: 'log', params: { level: 'info', message: as(W.fixstr('x'.repeat(31)), 'x'.repeat(31)) } },
    schema: 'log.params',
  },
  {
    name: 'str-str8',
    description: 'log message of 40 bytes as str8 0xd9',
    message: { kind: 'notification', method: 'log', params: { level: 'info', message: as(W.str8('y'.repeat(40)), 'y'.repeat(40)) } },
    schema: 'log.params',
  },
  {
    name: 'str-str16',
    description: 'log message of 300 bytes as str16 0xda',
    message: { kind: 'notification', method: 'log', params: { level: 'info', message: as(W.str16('z'.repeat(300)), 'z'.repeat(300)) } },
    schema: 'log.params',
  },
  {
    name: 'str-str32',
    description: 'a short string as str32 0xdb (wider than needed, still valid)',
    message: { kind: 'notification', method: 'log', params: { level: as(W.str32('warn'), 'warn'), message: 'wide' } },
    schema: 'log.params',
  },
  {
    name: 'str-unicode',
    description: 'UTF-8 strings: accents, CJK, an emoji (4 bytes in UTF-8, a surrogate pair in UTF-16)',
    message: {
      kind: 'notification',
      method: 'log',
      params: { level: 'info', message: 'café — 计算 🚀 ok', data: { clé: 'ünïcödé', 名前: ['𝔘', 'Ω'] } },
    },
    schema: 'log.params',
  },
  {
    name: 'graph-file-unicode',
    description: 'graph/file with non-ASCII path, names and signature',
    message: (() => {
      const v = { corpus: CORPUS, root: '', path: 'src/café.py', language: 'python', signature: 'Größe.berechne' };
      return {
        kind: 'notification',
        method: 'graph/file',
        params: {
          requestId: 3,
          path: 'src/café.py',
          language: 'python',
          phase: 'A',
          status: 'ok',
          nodes: [
            {
              vname: v,
              kind: 'function',
              name: 'berechne',
              qualifiedName: 'café.Größe.berechne',
              range: { startLine: 1, startCol: 0, endLine: 2, endCol: 14 },
              skeleton: 'def berechne(): # 计算 🚀',
            },
          ],
          edges: [],
          diagnostics: [],
        },
      };
    })(),
    schema: 'graph-file.params',
  },
  {
    name: 'bin-bin8',
    description: 'a bin8 value (0xc4) in log data; the corpus writes bin as {"$bin": "<hex>"}',
    message: logWith(W.bin8('00ff10'), bin('00ff10')),
    schema: 'log.params',
  },
  { name: 'bin-bin16', description: 'a bin16 value (0xc5)', message: logWith(W.bin16('deadbeef'), bin('deadbeef')), schema: 'log.params' },
  { name: 'bin-bin32', description: 'a bin32 value (0xc6), empty', message: logWith(W.bin32(''), bin('')), schema: 'log.params' },
  {
    name: 'nested-maps-and-arrays',
    description: 'nested maps and arrays, nil, booleans, in log data',
    message: log({ a: [1, [2, [3, { b: null, c: [true, false] }]]], d: { e: { f: { g: [] } } }, h: {} }),
    schema: 'log.params',
  },
  {
    name: 'wide-containers',
    description:
      'the envelope as map32 (0xdf), params as map16 (0xde), files as array16 (0xdc) and array32 (0xdd): wider than needed, still valid',
    message: as(
      W.map32([
        [enc('kind'), enc('request')],
        [enc('id'), enc(11)],
        [enc('method'), enc('analyze')],
        [
          enc('params'),
          W.map16([
            [enc('phase'), enc('B')],
            [
              enc('files'),
              W.array16([
                W.fixmap([
                  [enc('path'), enc('a.py')],
                  [enc('language'), enc('python')],
                ]),
              ]),
            ],
          ]),
        ],
      ]),
      { kind: 'request', id: 11, method: 'analyze', params: { phase: 'B', files: [{ path: 'a.py', language: 'python' }] } },
    ),
    schema: 'analyze.params',
  },
  {
    name: 'array32-empty',
    description: 'an empty array32 (0xdd) as the files of analyze',
    message: { kind: 'request', id: 12, method: 'analyze', params: { phase: 'A', files: as(W.array32([]), []) } },
    schema: 'analyze.params',
  },
  {
    name: 'map16-sixteen-keys',
    description: 'a map of 16 entries needs map16 (0xde): the shortest encoding',
    message: log(Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, i]))),
    schema: 'log.params',
  },
  {
    name: 'nesting-at-limit',
    description: 'arrays nested exactly 256 deep: the deepest a frame may be (frame layer only: not an envelope)',
    message: nested(256),
  },

  // streams
  {
    name: 'stream-request-notifications-response',
    description: 'a stream of several frames: analyze request, progress, graph/file, analyze response',
    messages: [
      VALID_ANALYZE(),
      { kind: 'notification', method: 'progress', params: { requestId: 3, done: 0, total: 1 } },
      GRAPH_FILE,
      { kind: 'response', id: 3, result: { files: 1, failed: 0, nodes: 4, edges: 4 } },
    ],
  },
  {
    name: 'limit-exact',
    description: 'a frame exactly as large as the limit (64 bytes) is accepted',
    message: sized(64),
    maxFrameBytes: 64,
    schema: 'log.params',
  },
];

function VALID_ANALYZE() {
  return { kind: 'request', id: 3, method: 'analyze', params: { phase: 'A', files: [{ path: 'src/cart.py', language: 'python' }] } };
}
/** `depth` arrays, one inside the other, around a nil. */
function nested(depth) {
  let v = null;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
/** A log notification whose body is exactly `n` bytes. */
function sized(n) {
  const base = { kind: 'notification', method: 'log', params: { level: 'info', message: '' } };
  const overhead = enc(base).length;
  for (const extra of [0, 1]) {
    // a message past 31 bytes needs a one-byte longer (str8) header
    const m = { ...base, params: { ...base.params, message: 'm'.repeat(n - overhead - extra) } };
    if (enc(m).length === n) return m;
  }
  throw new Error(`no log notification of exactly ${n} bytes`);
}

// ---------------------------------------------------------------------------------------
// Rejected frames.
// ---------------------------------------------------------------------------------------

/** Rejected at the frame layer: `body` is the message bytes (framed here) unless `hex` is given. */
const REJECTED = [
  // length prefix
  {
    name: 'too-large-4gib',
    description: 'a prefix announcing 4 GiB - 1 and no body: rejected on the prefix alone, before any allocation',
    hex: 'ffffffff',
    error: 'FRAME_TOO_LARGE',
  },
  {
    name: 'too-large-default-limit',
    description: 'a prefix announcing 16 MiB + 1, one over the default limit',
    hex: '01000001',
    error: 'FRAME_TOO_LARGE',
  },
  {
    name: 'too-large-negotiated-limit',
    description: 'a 65-byte frame over a 64-byte limit, body present: still rejected on the prefix',
    hex: frame(enc(sized(65))).toString('hex'),
    error: 'FRAME_TOO_LARGE',
    maxFrameBytes: 64,
  },
  { name: 'empty-frame', description: 'a zero length prefix: no value to decode', hex: '00000000', error: 'FRAME_EMPTY' },
  {
    name: 'empty-frame-after-valid',
    description: 'a valid frame, then a zero length prefix',
    hex: frame(enc(PING)).toString('hex') + '00000000',
    error: 'FRAME_EMPTY',
  },
  { name: 'truncated-prefix', description: 'the stream ends after 3 bytes of a length prefix', hex: '000000', error: 'FRAME_TRUNCATED' },
  {
    name: 'truncated-body',
    description: 'the prefix announces 38 bytes, the stream ends after 10',
    hex: frame(enc(HAND_WRITTEN_PING())).subarray(0, 14).toString('hex'),
    error: 'FRAME_TRUNCATED',
  },
  {
    name: 'truncated-second-frame',
    description: 'a valid frame, then a frame cut short by the end of the stream',
    hex: frame(enc(PING)).toString('hex') + frame(enc(PING)).subarray(0, 20).toString('hex'),
    error: 'FRAME_TRUNCATED',
  },

  // body is not one standard MessagePack value
  {
    name: 'value-runs-past-frame',
    description: 'a str announcing 5 bytes in a frame that holds 2 of them',
    body: raw(Buffer.from('a56869', 'hex')),
    error: 'FRAME_UNDECODABLE',
  },
  {
    name: 'map-count-past-frame',
    description: 'a fixmap announcing 4 entries that holds 1',
    body: raw(cat(byte(0x84), enc('kind'), enc('request'))),
    error: 'FRAME_UNDECODABLE',
  },
  {
    name: 'array32-count-past-frame',
    description: 'an array32 announcing 4294967295 items in a 6-byte frame (must not allocate for the count)',
    body: raw(Buffer.from('ddffffffff01', 'hex')),
    error: 'FRAME_UNDECODABLE',
  },
  {
    name: 'str32-length-past-frame',
    description: 'a str32 announcing 4294967295 bytes in a 6-byte frame',
    body: raw(Buffer.from('dbffffffff61', 'hex')),
    error: 'FRAME_UNDECODABLE',
  },
  {
    name: 'never-used-c1',
    description: 'the never-used byte 0xc1 as a value in log data',
    body: log(raw(byte(0xc1))),
    error: 'FRAME_UNDECODABLE',
  },
  {
    name: 'nesting-too-deep',
    description: 'arrays nested 257 deep, one over the limit of 256',
    body: raw(enc(nested(257))),
    error: 'FRAME_UNDECODABLE',
  },
  {
    name: 'trailing-bytes',
    description: 'a complete envelope followed by a nil inside the same frame',
    body: raw(cat(enc(PING), W.nil())),
    error: 'FRAME_TRAILING_BYTES',
  },
  {
    name: 'two-values-in-one-frame',
    description: 'two complete values in one frame',
    body: raw(cat(enc(1), enc(2))),
    error: 'FRAME_TRAILING_BYTES',
  },

  // extension types and non-string keys
  {
    name: 'ext-fixext1',
    description: 'fixext 1 (0xd4), application type 1',
    body: log(raw(W.ext(1, '00'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  { name: 'ext-fixext2', description: 'fixext 2 (0xd5)', body: log(raw(W.ext(2, '0102'))), error: 'FRAME_UNSUPPORTED_TYPE' },
  { name: 'ext-fixext4', description: 'fixext 4 (0xd6)', body: log(raw(W.ext(3, '01020304'))), error: 'FRAME_UNSUPPORTED_TYPE' },
  { name: 'ext-fixext8', description: 'fixext 8 (0xd7)', body: log(raw(W.ext(4, '0102030405060708'))), error: 'FRAME_UNSUPPORTED_TYPE' },
  {
    name: 'ext-fixext16',
    description: 'fixext 16 (0xd8)',
    body: log(raw(W.ext(5, '000102030405060708090a0b0c0d0e0f'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-ext8',
    description: 'ext 8 (0xc7) with 3 bytes of data',
    body: log(raw(W.ext(6, '010203'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  { name: 'ext-ext16', description: 'ext 16 (0xc8)', body: log(raw(W.ext(7, '0102', 16))), error: 'FRAME_UNSUPPORTED_TYPE' },
  { name: 'ext-ext32', description: 'ext 32 (0xc9)', body: log(raw(W.ext(8, '0102', 32))), error: 'FRAME_UNSUPPORTED_TYPE' },
  {
    name: 'ext-timestamp32',
    description: 'the standard timestamp extension (type -1), 32-bit form',
    body: log(raw(W.ext(-1, '00000001'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-timestamp64',
    description: 'timestamp extension (type -1), 64-bit form',
    body: log(raw(W.ext(-1, '0000000100000001'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-timestamp96',
    description: 'timestamp extension (type -1), 96-bit form in ext 8',
    body: log(raw(W.ext(-1, '000000000000000000000001'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-type-0',
    description: 'extension type 0 (some libraries use it for undefined)',
    body: log(raw(W.ext(0, '00'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-msgpackr-record',
    description: 'a msgpackr record definition (fixext 1, type 0x72) as the first of 5 array items: JS-specific, not standard',
    body: raw(Buffer.from('95d4724091a161014002', 'hex')),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-msgpackr-typed-array',
    description: 'a msgpackr typed array (ext 8, type 0x74) that would decode as bytes',
    body: log(raw(W.ext(0x74, '010203'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'ext-msgpackr-bundled-strings',
    description: 'msgpackr bundled strings (fixext 4, type 0x62)',
    body: log(raw(W.ext(0x62, '00000000'))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'map-int-key',
    description: 'a map with an integer key: map keys must be strings (no conversion to "1")',
    body: log(raw(W.fixmap([[enc(1), enc('one')]]))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'map-int-key-envelope',
    description: 'an envelope whose keys are integers',
    body: raw(
      W.fixmap([
        [enc(0), enc('request')],
        [enc(1), enc(1)],
      ]),
    ),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'map-nil-key',
    description: 'a map with a nil key',
    body: log(raw(W.fixmap([[W.nil(), enc(1)]]))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'map-bin-key',
    description: 'a map with a bin key',
    body: log(raw(W.fixmap([[W.bin8('6b'), enc(1)]]))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'map-array-key',
    description: 'a map with an array key',
    body: log(raw(W.fixmap([[enc(['a']), enc(1)]]))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
  {
    name: 'map-float-key',
    description: 'a map with a float key',
    body: log(raw(W.fixmap([[W.f64(1.5), enc(1)]]))),
    error: 'FRAME_UNSUPPORTED_TYPE',
  },
];

// Well-formed frames whose envelope or params fail the schema: SCHEMA_VIOLATION.
const mutate = (base, change) => {
  const m = clone(base);
  change(m);
  return m;
};
const gf = (change) => mutate(GRAPH_FILE, (m) => change(m.params));
const SCHEMA_REJECTED = [
  // envelope
  {
    name: 'envelope-not-a-map',
    description: 'the frame holds an array, not an envelope map',
    message: ['request', 1, 'ping'],
    schema: 'envelope',
  },
  {
    name: 'envelope-missing-kind',
    description: 'an envelope without kind',
    message: { id: 1, method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'envelope-unknown-kind',
    description: 'kind "event" is not request, response or notification',
    message: { kind: 'event', method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'envelope-additional-property',
    description: 'an envelope member the protocol does not define',
    message: { kind: 'request', id: 1, method: 'ping', params: {}, jsonrpc: '2.0' },
    schema: 'envelope',
  },
  {
    name: 'response-result-and-error',
    description: 'a response with both result and error',
    message: { kind: 'response', id: 1, result: {}, error: { code: -32603, message: 'x' } },
    schema: 'envelope',
  },
  {
    name: 'response-neither-result-nor-error',
    description: 'a response with neither result nor error',
    message: { kind: 'response', id: 1 },
    schema: 'envelope',
  },
  { name: 'response-without-id', description: 'a response without id', message: { kind: 'response', result: {} }, schema: 'envelope' },
  {
    name: 'error-without-message',
    description: 'an error object without message',
    message: { kind: 'response', id: 1, error: { code: -32603 } },
    schema: 'envelope',
  },
  {
    name: 'error-code-not-integer',
    description: 'an error code that is not an integer',
    message: { kind: 'response', id: 1, error: { code: 1.5, message: 'x' } },
    schema: 'envelope',
  },
  {
    name: 'request-without-id',
    description: 'a request without id',
    message: { kind: 'request', method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-without-method',
    description: 'a request without method',
    message: { kind: 'request', id: 1, params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-float',
    description: 'request id 1.5: ids are non-negative integers or strings',
    message: { kind: 'request', id: 1.5, method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-negative',
    description: 'request id -1',
    message: { kind: 'request', id: -1, method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-too-large',
    description: 'request id 2^53: beyond the largest safe integer',
    message: { kind: 'request', id: as(W.u64(2 ** 53), 2 ** 53), method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-bool',
    description: 'request id true',
    message: { kind: 'request', id: true, method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-nil',
    description: 'request id nil',
    message: { kind: 'request', id: null, method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-empty-string',
    description: 'request id "" (strings must have 1 to 128 characters)',
    message: { kind: 'request', id: '', method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'request-id-map',
    description: 'request id {}',
    message: { kind: 'request', id: {}, method: 'ping', params: {} },
    schema: 'envelope',
  },
  {
    name: 'notification-with-id',
    description: 'a notification carries no id',
    message: { kind: 'notification', id: 1, method: 'log', params: { level: 'info', message: 'x' } },
    schema: 'envelope',
  },
  {
    name: 'method-empty',
    description: 'an empty method name',
    message: { kind: 'notification', method: '', params: {} },
    schema: 'envelope',
  },

  // method params and results
  {
    name: 'graph-file-unknown-node-kind',
    description: 'graph/file with a node of kind "widget"',
    message: gf((p) => (p.nodes[1].kind = 'widget')),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-negative-line',
    description: 'graph/file with startLine -1',
    message: gf((p) => (p.nodes[1].range.startLine = -1)),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-line-zero',
    description: 'graph/file with startLine 0: lines are 1-based',
    message: gf((p) => (p.nodes[1].range.startLine = 0)),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-negative-column',
    description: 'graph/file with endCol -1',
    message: gf((p) => (p.nodes[2].range.endCol = -1)),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-confidence-above-one',
    description: 'graph/file with an edge of confidence 1.5',
    message: gf((p) => (p.edges[3].confidence = 1.5)),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-confidence-negative',
    description: 'graph/file with an edge of confidence -0.5',
    message: gf((p) => (p.edges[3].confidence = -0.5)),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-node-additional-property',
    description: 'graph/file with a node member the schema does not define',
    message: gf((p) => (p.nodes[1].color = 'red')),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-params-additional-property',
    description: 'graph/file params with an extra member',
    message: gf((p) => (p.extra = true)),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-unknown-edge-kind',
    description: 'graph/file with an edge of kind "likes"',
    message: gf((p) => (p.edges[0].kind = 'likes')),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-unknown-provenance',
    description: 'graph/file with provenance "guess"',
    message: gf((p) => (p.edges[0].provenance = 'guess')),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-bad-language',
    description: 'graph/file with VName language "Python": language ids are lowercase',
    message: gf((p) => (p.nodes[0].vname.language = 'Python')),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-vname-missing-field',
    description: 'graph/file with a VName without root',
    message: gf((p) => delete p.nodes[0].vname.root),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-missing-diagnostics',
    description: 'graph/file without diagnostics (required, may be empty)',
    message: gf((p) => delete p.diagnostics),
    schema: 'graph-file.params',
  },
  {
    name: 'graph-file-unknown-status',
    description: 'graph/file with status "partial"',
    message: gf((p) => (p.status = 'partial')),
    schema: 'graph-file.params',
  },
  {
    name: 'hello-params-missing-max-frame',
    description: 'hello params without maxFrameBytes',
    message: { kind: 'request', id: 1, method: 'hello', params: { protocolVersions: ['1'], host: { name: 'travsr', version: '0.1.0' } } },
    schema: 'hello.params',
  },
  {
    name: 'hello-params-max-frame-too-small',
    description: 'hello with maxFrameBytes 1024, under the 64 KiB minimum',
    message: {
      kind: 'request',
      id: 1,
      method: 'hello',
      params: { protocolVersions: ['1'], host: { name: 'travsr', version: '0.1.0' }, maxFrameBytes: 1024 },
    },
    schema: 'hello.params',
  },
  {
    name: 'hello-params-no-versions',
    description: 'hello offering no protocol version',
    message: {
      kind: 'request',
      id: 1,
      method: 'hello',
      params: { protocolVersions: [], host: { name: 'travsr', version: '0.1.0' }, maxFrameBytes: 65536 },
    },
    schema: 'hello.params',
  },
  {
    name: 'hello-result-bad-plugin-version',
    description: 'hello result with a plugin version that is not semver',
    message: {
      kind: 'response',
      id: 1,
      result: {
        protocolVersion: '1',
        plugin: { id: 'example-python', version: 'latest' },
        sdk: { name: 's', version: '1' },
        capabilities: { phases: ['A'], cancellation: true, progress: false },
        maxFrameBytes: 65536,
      },
    },
    schema: 'hello.result',
  },
  {
    name: 'initialize-params-empty-root',
    description: 'initialize with an empty root',
    message: { kind: 'request', id: 2, method: 'initialize', params: { root: '', corpus: CORPUS } },
    schema: 'initialize.params',
  },
  {
    name: 'analyze-params-unknown-phase',
    description: 'analyze with phase "C"',
    message: { kind: 'request', id: 3, method: 'analyze', params: { phase: 'C', files: [] } },
    schema: 'analyze.params',
  },
  {
    name: 'analyze-result-negative-count',
    description: 'analyze result with a negative count',
    message: { kind: 'response', id: 3, result: { files: -1, failed: 0, nodes: 0, edges: 0 } },
    schema: 'analyze.result',
  },
  {
    name: 'embed-params-no-texts',
    description: 'embed with an empty list of texts',
    message: { kind: 'request', id: 7, method: 'embed', params: { texts: [] } },
    schema: 'embed.params',
  },
  {
    name: 'embed-result-string-in-vector',
    description: 'a vector holding a string',
    message: { kind: 'response', id: 7, result: { vectors: [[0.5, '0.5']] } },
    schema: 'embed.result',
  },
  {
    name: 'score-params-missing-query',
    description: 'score without the query',
    message: { kind: 'request', id: 8, method: 'score', params: { candidates: ['x'] } },
    schema: 'score.params',
  },
  {
    name: 'cancel-params-missing-id',
    description: 'cancel without the id to cancel',
    message: { kind: 'notification', method: 'cancel', params: {} },
    schema: 'cancel.params',
  },
  {
    name: 'ping-params-float-nonce',
    description: 'ping with a nonce of 1.5',
    message: { kind: 'request', id: 4, method: 'ping', params: { nonce: 1.5 } },
    schema: 'ping.params',
  },
  {
    name: 'shutdown-params-not-empty',
    description: 'shutdown params must be an empty map',
    message: { kind: 'request', id: 6, method: 'shutdown', params: { now: true } },
    schema: 'shutdown.params',
  },
  {
    name: 'progress-negative-done',
    description: 'progress with done -1',
    message: { kind: 'notification', method: 'progress', params: { requestId: 3, done: -1, total: 2 } },
    schema: 'progress.params',
  },
  {
    name: 'log-unknown-level',
    description: 'log with level "trace"',
    message: { kind: 'notification', method: 'log', params: { level: 'trace', message: 'x' } },
    schema: 'log.params',
  },
];

function HAND_WRITTEN_PING() {
  return HAND_WRITTEN[0].message;
}

// ---------------------------------------------------------------------------------------
// Output.
// ---------------------------------------------------------------------------------------

function json(v) {
  return JSON.stringify(v, null, 2) + '\n';
}

/** Every corpus file, by path relative to frames/. */
export function buildCorpus() {
  const files = new Map();
  const put = (path, doc) => {
    if (files.has(path)) throw new Error(`duplicate corpus file ${path}`);
    files.set(path, json(doc));
  };

  for (const h of HAND_WRITTEN) {
    const mine = h.messages ? Buffer.concat(h.messages.map((m) => frame(enc(m)))) : frame(enc(h.message));
    if (mine.toString('hex') !== h.hex) {
      throw new Error(`the generator's writer disagrees with hand-written ${h.name}:\n  hand ${h.hex}\n  mine ${mine.toString('hex')}`);
    }
    const doc = { description: h.description, hex: h.hex };
    if (h.schema) doc.schema = h.schema;
    doc.canonical = true;
    doc.expect = h.messages ? { messages: h.messages } : { message: h.message };
    put(`valid/${h.name}.json`, doc);
  }

  for (const v of VALID) {
    const list = v.messages ?? [v.message];
    const hex = Buffer.concat(list.map((m) => frame(enc(m)))).toString('hex');
    const doc = { description: v.description, hex };
    if (v.schema) doc.schema = v.schema;
    if (!list.some(usesRaw)) doc.canonical = true;
    doc.expect = v.messages ? { messages: v.messages.map(plain) } : { message: plain(v.message) };
    if (v.maxFrameBytes !== undefined) doc.expect.maxFrameBytes = v.maxFrameBytes;
    put(`valid/${v.name}.json`, doc);
  }

  for (const r of REJECTED) {
    const hex = r.hex ?? frame(enc(r.body)).toString('hex');
    const doc = { description: r.description, hex, expect: { error: r.error } };
    if (r.maxFrameBytes !== undefined) doc.expect.maxFrameBytes = r.maxFrameBytes;
    put(`rejected/${r.name}.json`, doc);
  }

  for (const s of SCHEMA_REJECTED) {
    const hex = frame(enc(s.message)).toString('hex');
    put(`rejected/${s.name}.json`, {
      description: s.description,
      hex,
      schema: s.schema,
      expect: { error: 'SCHEMA_VIOLATION', message: plain(s.message) },
    });
  }
  return files;
}

function existing() {
  const found = new Map();
  for (const dir of ['valid', 'rejected']) {
    let names = [];
    try {
      names = readdirSync(join(OUT, dir));
    } catch {
      continue;
    }
    for (const n of names) if (n.endsWith('.json')) found.set(`${dir}/${n}`, readFileSync(join(OUT, dir, n), 'utf8'));
  }
  return found;
}

function main() {
  const want = buildCorpus();
  if (process.argv.includes('--check')) {
    const have = existing();
    const stale = [...want].filter(([p, text]) => have.get(p) !== text).map(([p]) => p);
    const extra = [...have.keys()].filter((p) => !want.has(p));
    if (stale.length || extra.length) {
      console.error(`frame corpus is out of date: ${[...stale, ...extra.map((p) => `${p} (not generated)`)].join(', ')}`);
      console.error('run: node protocol/corpus/generate.mjs');
      process.exit(1);
    }
    console.log(`frame corpus is up to date (${want.size} files)`);
    return;
  }
  rmSync(OUT, { recursive: true, force: true });
  for (const [p, text] of want) {
    mkdirSync(dirname(join(OUT, p)), { recursive: true });
    writeFileSync(join(OUT, p), text);
  }
  console.log(`wrote ${want.size} corpus files to ${OUT}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
