import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { schemaFiles } from '../../src/schema/emit.js';

/** protocol/ */
export const PROTOCOL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CORPUS_DIR = join(PROTOCOL_DIR, 'corpus', 'frames');

export type CorpusErrorCode =
  | 'FRAME_TOO_LARGE'
  | 'FRAME_EMPTY'
  | 'FRAME_UNDECODABLE'
  | 'FRAME_TRAILING_BYTES'
  | 'FRAME_UNSUPPORTED_TYPE'
  | 'FRAME_TRUNCATED'
  | 'SCHEMA_VIOLATION';

/** One file of protocol/corpus/frames, as documented in protocol/corpus/README.md. */
export interface CorpusCase {
  /** `valid/hello-request.json` */
  file: string;
  valid: boolean;
  description: string;
  bytes: Buffer;
  schema?: string;
  canonical?: boolean;
  /** Messages the stream decodes to, in order (valid files; SCHEMA_VIOLATION files: one). */
  messages: unknown[];
  error?: CorpusErrorCode;
  maxFrameBytes?: number;
}

interface CorpusFile {
  description: string;
  hex: string;
  schema?: string;
  canonical?: boolean;
  expect: { message?: unknown; messages?: unknown[]; error?: CorpusErrorCode; maxFrameBytes?: number };
}

/** Every corpus file, valid ones first, sorted by name. */
export function loadCorpus(): CorpusCase[] {
  const out: CorpusCase[] = [];
  for (const dir of ['valid', 'rejected'] as const) {
    for (const name of readdirSync(join(CORPUS_DIR, dir)).sort()) {
      if (!name.endsWith('.json')) continue;
      const doc = JSON.parse(readFileSync(join(CORPUS_DIR, dir, name), 'utf8')) as CorpusFile;
      const c: CorpusCase = {
        file: `${dir}/${name}`,
        valid: dir === 'valid',
        description: doc.description,
        bytes: Buffer.from(doc.hex, 'hex'),
        messages: doc.expect.messages ?? ('message' in doc.expect ? [doc.expect.message] : []),
      };
      if (doc.schema !== undefined) c.schema = doc.schema;
      if (doc.canonical !== undefined) c.canonical = doc.canonical;
      if (doc.expect.error !== undefined) c.error = doc.expect.error;
      if (doc.expect.maxFrameBytes !== undefined) c.maxFrameBytes = doc.expect.maxFrameBytes;
      out.push(c);
    }
  }
  return out;
}

/** Corpus JSON → protocol value: `{"$bin": hex}` becomes bytes. */
export function fromCorpusJson(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromCorpusJson);
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === '$bin') return Buffer.from((v as { $bin: string }).$bin, 'hex');
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromCorpusJson(x)]));
  }
  return v;
}

/** Decoded protocol value → corpus JSON: bytes become `{"$bin": hex}`. */
export function toCorpusJson(v: unknown): unknown {
  if (v instanceof Uint8Array) return { $bin: Buffer.from(v.buffer, v.byteOffset, v.length).toString('hex') };
  if (Array.isArray(v)) return v.map(toCorpusJson);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toCorpusJson(x)]));
  return v;
}

/**
 * The TypeBox schema a corpus `schema` name stands for: `envelope`, `hello.params`,
 * `graph-file.params`, `ping.result`… (the file names of protocol/schemas without `.schema.json`).
 */
export function schemaByName(name: string): TSchema {
  const schema = schemaFiles()[`${name}.schema.json`];
  if (!schema) throw new Error(`corpus names an unknown schema "${name}"`);
  return schema;
}

/** Which member of an envelope a `<method>.params|result` schema applies to. */
export function memberOf(name: string): 'params' | 'result' | undefined {
  if (name.endsWith('.params')) return 'params';
  if (name.endsWith('.result')) return 'result';
  return undefined;
}

/** A small deterministic PRNG (mulberry32) so random chunkings are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `bytes` into chunks of random sizes between 1 and `max`. */
export function randomChunks(bytes: Uint8Array, random: () => number, max = 64): Uint8Array[] {
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    const n = 1 + Math.floor(random() * max);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}
