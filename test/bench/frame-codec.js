// Benchmark 1: frame encode and decode throughput in process, for a small envelope (a
// progress notification, ~150 bytes) and a graph/file envelope of ~64 KiB.
import { encodeFrame, FrameDecoder, packValue } from '@travsr/protocol';
import { FileGraphBuilder } from '@travsr/sdk';
import { loadSyntheticGraph, row, runFor } from './common.js';

export const name = 'frames';
export const title = 'frame codec';

const RUN_MS = 1500;
const WARMUP_MS = 300;
const CHUNK = 64 * 1024;
const STREAM_BYTES = 4 * 1024 * 1024;

function smallEnvelope() {
  return {
    kind: 'notification',
    method: 'progress',
    params: {
      requestId: 42,
      done: 1234,
      total: 20_000,
      message: 'analyzing src/services/orders/order-repository.ts (1234 of 20000 files)',
    },
  };
}

/** A graph/file envelope whose msgpack body is as close to 64 KiB as whole nodes+edges allow. */
async function graphEnvelope(targetBytes) {
  const { syntheticFileGraph } = await loadSyntheticGraph();
  const envelope = (n) => {
    const graph = new FileGraphBuilder({
      corpus: 'github.com/acme/shop',
      path: 'src/services/orders/order-service.ts',
      language: 'typescript',
    });
    const a = syntheticFileGraph(graph, { nodes: n, edges: n });
    return {
      kind: 'notification',
      method: 'graph/file',
      params: {
        requestId: 7,
        path: 'src/services/orders/order-service.ts',
        language: 'typescript',
        phase: 'A',
        status: 'ok',
        nodes: a.nodes,
        edges: a.edges,
        diagnostics: [],
      },
    };
  };
  let lo = 1;
  let hi = 4096;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (packValue(envelope(mid)).length <= targetBytes) lo = mid;
    else hi = mid - 1;
  }
  return { message: envelope(lo), items: 2 * lo };
}

/** The stream a host would read: frames back to back, cut into fixed-size chunks. */
function chunkedStream(frame, minBytes) {
  const count = Math.max(1, Math.ceil(minBytes / frame.length));
  const stream = Buffer.concat(Array.from({ length: count }, () => frame));
  const chunks = [];
  for (let at = 0; at < stream.length; at += CHUNK) chunks.push(stream.subarray(at, at + CHUNK));
  return { chunks, frames: count, bytes: stream.length };
}

function measure(label, bytesPerOp, batch) {
  runFor(WARMUP_MS, batch);
  const { ops, seconds } = runFor(RUN_MS, batch);
  return { label, mbps: (ops * bytesPerOp) / seconds / 1e6, fps: ops / seconds };
}

function benchShape(shape, message) {
  const frame = encodeFrame(message);
  const results = [];
  results.push(
    measure('encode', frame.length, () => {
      for (let i = 0; i < 16; i++) encodeFrame(message);
      return 16;
    }),
  );
  const stream = chunkedStream(frame, STREAM_BYTES);
  results.push(
    measure('decode (64 KiB chunks)', frame.length, () => {
      const decoder = new FrameDecoder();
      let n = 0;
      for (const chunk of stream.chunks) n += decoder.push(chunk).length;
      if (n !== stream.frames) throw new Error(`decoded ${n} of ${stream.frames} frames`);
      return n;
    }),
  );
  const decoder = new FrameDecoder();
  results.push(
    measure('encode + decode', frame.length, () => {
      for (let i = 0; i < 16; i++) if (decoder.push(encodeFrame(message)).length !== 1) throw new Error('round trip lost a frame');
      return 16;
    }),
  );
  const rows = [];
  for (const r of results) {
    rows.push(row(title, `${shape}: ${r.label}`, r.mbps, 'MB/s'));
    rows.push(row(title, `${shape}: ${r.label}`, r.fps, 'frames/s'));
  }
  return { rows, frameBytes: frame.length };
}

export async function run() {
  const small = smallEnvelope();
  const graph = await graphEnvelope(64 * 1024);
  const a = benchShape('small', small);
  const b = benchShape('64 KiB', graph.message);
  return [
    row(title, 'small frame size (progress notification)', a.frameBytes, 'bytes'),
    ...a.rows,
    row(title, `64 KiB frame size (graph/file, ${graph.items} nodes+edges)`, b.frameBytes, 'bytes'),
    ...b.rows,
  ];
}
