// A tool-call worker thread: opens the served graphs read-only and answers tool calls one at a
// time. The pool (tool-pool.ts) kills and replaces a worker whose call timed out or was
// cancelled, so a slow query never holds the server. Between calls the worker counts the
// tokens of the graphs' definitions ahead of the questions (ItemTokenWarmer), in slices short
// enough that a call waits for one at most; once they are counted, it answers a few dozen
// questions of its own (QueryWarmUp), so that V8 has compiled the retrieval code before the
// first real ones — a call that comes meanwhile waits for one of those at most —, and a few
// again after each change of the graph, once edits pause.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { CodeGraph } from '../retrieval/code-graph.js';
import type { AccessPolicy } from '../retrieval/access-policy.js';
import { GraphChangeLog } from '../retrieval/graph-change-log.js';
import { ItemTokenWarmer } from '../retrieval/item-token-warmer.js';
import { GraphStore, type GraphChanges } from '../store/index.js';
import { deferredTraceSink } from '../traces/trace-sink.js';
import { QueryWarmUp } from './query-warm-up.js';
import {
  jsonToolResult,
  runTool,
  type JsonParts,
  type JsonToolResult,
  type ToolCallExtras,
  type ToolHost,
  type ToolResult,
} from './tool-runner.js';
import { join } from 'node:path';

/** What a worker is started with. */
export interface ToolWorkerData {
  graphs: { root: string; corpus: string }[];
  /** Where the graphs' changes come ({@link ToolWorkerChanges}), when someone reports them (the daemon). */
  changes?: MessagePort;
}

// How long one slice of counting ahead holds the worker: the most a call waits for it.
const WARM_SLICE_MS = 3;
// After the graph changes, once it has been quiet this long, the worker answers a few questions
// of its own again: on a changed graph the first get_context built the snapshot's derived tables
// (k-core shells, definitions by file) and looked every term up anew (effect@3: 82–90 ms of
// worker time, 19–28 ms with these questions answered first), and the next ones were slower too.
// A burst of edits re-arms the wait, so the questions run once it ends, not between its updates.
const REWARM_AFTER_MS = 500;
const REWARM_QUESTIONS = 8;

/** A call sent to a worker. */
export interface ToolWorkerCall {
  id: number;
  name: string;
  args: unknown;
  policy: AccessPolicy;
  /** Answer a {@link JsonToolResult} with these parts: the structured content serialized here, not cloned as objects. */
  json?: JsonParts;
  /** What the pool's owner prepared for the call (the question's embedding for the vector channel). */
  extras?: ToolCallExtras;
}

/** The graph changes of one repository, from the daemon's writer (see {@link ToolPool.noteChanges}). */
export interface ToolWorkerChanges {
  t: 'changes';
  root: string;
  changes: GraphChanges;
}

/** A worker's answer. */
export type ToolWorkerReply = { id: number; result: ToolResult | JsonToolResult } | { id: number; crash: string };

/** Sent once the worker has opened its graphs and takes calls. */
export interface ToolWorkerReady {
  ready: true;
}

if (parentPort) {
  const port = parentPort;
  const data = workerData as ToolWorkerData;
  const graphs = data.graphs.map(
    (g) => new CodeGraph(g.root, GraphStore.open(join(g.root, '.travsr', 'graph.db'), { readonly: true }), g.corpus),
  );
  const host: ToolHost = { graphs, saveTrace: deferredTraceSink(data.graphs[0]?.root) };
  const warmers = graphs.map((g) => new ItemTokenWarmer(g));
  let warmUp: QueryWarmUp | 'done' | undefined;
  let warming: NodeJS.Immediate | undefined;
  // Counts in slices until every graph is done, then answers its warm-up questions one at a
  // time; a call or a change of the graph starts it again.
  const warm = () => {
    warming = undefined;
    try {
      let done = true;
      for (const w of warmers) done = w.step(WARM_SLICE_MS) && done;
      if (done && warmUp !== 'done') {
        warmUp ??= new QueryWarmUp(graphs);
        if (warmUp.step()) warmUp = 'done';
        else done = false;
      }
      if (!done) warming = setImmediate(warm);
    } catch {
      // Counting and warming up ahead are optimisations: a graph that cannot be read now fails the next call, which says why.
      if (warmUp !== undefined) warmUp = 'done';
    }
  };
  const warmLater = () => {
    warming ??= setImmediate(warm);
  };
  warmLater();
  let rewarm: NodeJS.Timeout | undefined;
  const rewarmLater = () => {
    clearTimeout(rewarm);
    rewarm = setTimeout(() => {
      if (warmUp === 'done') warmUp = new QueryWarmUp(graphs, REWARM_QUESTIONS);
      warmLater();
    }, REWARM_AFTER_MS);
    rewarm.unref();
  };
  const changes = data.changes;
  if (changes) {
    const apply = (m: ToolWorkerChanges) => {
      graphs.find((g) => g.repoRoot === m.root)?.changes?.add(m.changes);
      warmLater();
      rewarmLater();
    };
    // A snapshot about to be patched past what the log knows takes the reports waiting on the port first.
    const pull = () => {
      for (let m = receiveMessageOnPort(changes); m; m = receiveMessageOnPort(changes)) apply(m.message as ToolWorkerChanges);
    };
    for (const g of graphs) g.changes = new GraphChangeLog(pull);
    changes.on('message', apply);
    changes.unref();
  }
  port.on('message', (call: ToolWorkerCall) => {
    try {
      const result = runTool(host, call.name, call.args, call.policy, call.extras);
      port.postMessage({
        id: call.id,
        result: call.json === undefined ? result : jsonToolResult(result, call.json),
      } satisfies ToolWorkerReply);
    } catch (e) {
      port.postMessage({ id: call.id, crash: (e as Error).stack ?? String(e) } satisfies ToolWorkerReply);
    }
    warmLater();
  });
  port.postMessage({ ready: true } satisfies ToolWorkerReady);
}
