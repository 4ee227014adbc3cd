import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import type { AccessPolicy } from '../retrieval/access-policy.js';
import { TraceRecorder, type Trace } from '../traces/trace.js';
import { jsonToolResult, type JsonParts, type JsonToolResult, type ToolCallExtras, type ToolResult } from './tool-runner.js';
import type { GraphChanges } from '../store/index.js';
import type { ToolWorkerCall, ToolWorkerChanges, ToolWorkerData, ToolWorkerReady, ToolWorkerReply } from './tool-worker.js';
import { hostPackagePath } from '../paths/host-package.js';

// The compiled worker (tsc's output; also when this module runs from source in the tests, or
// from the CLI's bundle).
const WORKER_FILE = hostPackagePath('dist', 'tools', 'tool-worker.js');

/** Options of a {@link ToolPool}. */
export interface ToolPoolOptions {
  graphs: ToolWorkerData['graphs'];
  /**
   * Worker threads (default 2): this many calls run at once. The first starts with the pool,
   * the others when a call has to wait for a busy worker (each holds the graphs' snapshots).
   */
  size?: number;
  /** A call running longer is stopped and answered TOOL_TIMEOUT (default 30 s). */
  timeoutMs?: number;
  /** Where the traces of calls that never finished (timeout, cancel, crash) go. */
  saveTrace(trace: Trace): void;
}

interface Pending {
  call: ToolWorkerCall;
  /** The worker's answer, or a failure of the pool's own (made a JsonToolResult for a `json` call). */
  resolve(r: ToolResult | JsonToolResult): void;
  signal: AbortSignal | undefined;
}

interface Slot {
  worker: Worker;
  /** Where graph changes go to this worker ({@link ToolPool.noteChanges}). */
  changes: MessagePort;
  busy: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
  /**
   * False while a worker started for waiting calls is starting: calls go to it once it says it
   * is ready, so that a call does not wait for a start when a busy worker frees up sooner.
   */
  ready: boolean;
}

/**
 * Runs tool calls on worker threads, each with the served graphs open read-only: calls run in
 * parallel up to `size`, each has a timeout, and a cancelled or timed-out call's worker is
 * terminated and replaced, so one slow query never blocks the others or the server.
 */
export class ToolPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly size: number;

  constructor(private readonly opts: ToolPoolOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.size = Math.max(1, opts.size ?? 2);
    this.slots.push(this.spawn());
  }

  /** Worker threads started so far (at most `size`). */
  get workers(): number {
    return this.slots.length;
  }

  /** Runs tool `name`; resolves with its result (errors, timeouts and cancellation are error results). */
  run(name: string, args: unknown, policy: AccessPolicy, signal?: AbortSignal, extras?: ToolCallExtras): Promise<ToolResult> {
    return this.submit(name, args, policy, signal, undefined, extras) as Promise<ToolResult>;
  }

  /**
   * {@link run}, answered with the structured content as JSON text made on the worker: for a
   * caller that sends the answer on, so no object tree is cloned between threads and parsed
   * back to be serialized again. Only the `parts` asked for are filled (see {@link JsonParts}).
   */
  runJson(
    name: string,
    args: unknown,
    policy: AccessPolicy,
    signal?: AbortSignal,
    parts: JsonParts = 'both',
    extras?: ToolCallExtras,
  ): Promise<JsonToolResult> {
    return this.submit(name, args, policy, signal, parts, extras) as Promise<JsonToolResult>;
  }

  private submit(
    name: string,
    args: unknown,
    policy: AccessPolicy,
    signal: AbortSignal | undefined,
    json: JsonParts | undefined,
    extras: ToolCallExtras | undefined,
  ): Promise<ToolResult | JsonToolResult> {
    const shaped = (r: ToolResult): ToolResult | JsonToolResult => (json === undefined ? r : jsonToolResult(r, json));
    if (this.closed) return Promise.resolve(shaped(this.failure(name, 'TOOL_FAILED', 'the server is shutting down')));
    return new Promise((resolve) => {
      const pending: Pending = {
        call: { id: this.nextId++, name, args, policy, ...(json === undefined ? {} : { json }), ...(extras ? { extras } : {}) },
        // The pool's own failures are ToolResults; a worker's answer has the asked shape already.
        resolve: (r) => resolve('structured' in r ? shaped(r) : r),
        signal,
      };
      if (signal?.aborted) {
        pending.resolve(this.failure(name, 'TOOL_CANCELLED', 'the call was cancelled before it started'));
        return;
      }
      signal?.addEventListener('abort', () => this.cancel(pending), { once: true });
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /**
   * Tells every worker what changed in a repository's graph (the daemon's writer records it):
   * their snapshots are then patched at the next call instead of read whole. A worker started
   * later loads its snapshot whole once.
   */
  noteChanges(root: string, changes: GraphChanges): void {
    const note: ToolWorkerChanges = { t: 'changes', root, changes };
    for (const slot of this.slots) slot.changes.postMessage(note);
  }

  /** Terminates every worker; calls still queued are answered with an error. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.resolve(this.failure(p.call.name, 'TOOL_FAILED', 'the server is shutting down'));
    await Promise.all(
      this.slots.map(async (s) => {
        if (s.timer) clearTimeout(s.timer);
        if (s.busy) s.busy.resolve(this.failure(s.busy.call.name, 'TOOL_FAILED', 'the server is shutting down'));
        s.changes.close();
        await s.worker.terminate();
      }),
    );
  }

  /**
   * Starts a worker for `slot` (a new slot when none is given), its messages bound to that slot.
   * A new slot started for waiting calls (`whenReady`) takes calls once its worker is ready.
   */
  private spawn(existing?: Slot, whenReady = false): Slot {
    // Changes come on a channel of their own: a worker about to patch its snapshot takes the
    // ones waiting there at once, without waiting for its event loop.
    const channel = new MessageChannel();
    const worker = new Worker(WORKER_FILE, {
      workerData: { graphs: this.opts.graphs, changes: channel.port2 } satisfies ToolWorkerData,
      transferList: [channel.port2],
    });
    channel.port1.unref();
    existing?.changes.close();
    const slot: Slot = existing ?? { worker, changes: channel.port1, busy: undefined, timer: undefined, ready: !whenReady };
    slot.worker = worker;
    slot.changes = channel.port1;
    worker.on('message', (reply: ToolWorkerReply | ToolWorkerReady) => {
      if ('ready' in reply) {
        if (slot.worker === worker && !slot.ready) {
          slot.ready = true;
          this.dispatch();
        }
        return;
      }
      const p = slot.busy;
      if (slot.worker !== worker || !p || p.call.id !== reply.id) return;
      this.finish(slot);
      p.resolve(
        'result' in reply ? reply.result : this.failure(p.call.name, 'TOOL_FAILED', `the tool crashed: ${reply.crash.split('\n')[0]}`),
      );
      this.dispatch();
    });
    worker.on('error', (e) => {
      if (slot.worker !== worker) return;
      const p = slot.busy;
      this.replace(slot);
      p?.resolve(this.failure(p.call.name, 'TOOL_FAILED', `the tool worker failed: ${e.message}`));
    });
    worker.unref();
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy || !slot.ready || this.queue.length === 0) continue;
      const p = this.queue.shift()!;
      slot.busy = p;
      slot.timer = setTimeout(() => {
        this.replace(slot);
        p.resolve(
          this.failure(
            p.call.name,
            'TOOL_TIMEOUT',
            `the call took longer than ${this.timeoutMs} ms and was stopped; ask for less (a lower depth, limit or token_budget) or a narrower query`,
          ),
        );
      }, this.timeoutMs);
      slot.worker.postMessage(p.call);
    }
    // Calls wait and every worker is busy: one more worker, up to `size`, unless one is starting.
    if (this.queue.length > 0 && !this.closed && this.slots.length < this.size && this.slots.every((s) => s.ready))
      this.slots.push(this.spawn(undefined, true));
  }

  private cancel(p: Pending): void {
    const queued = this.queue.indexOf(p);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      p.resolve(this.failure(p.call.name, 'TOOL_CANCELLED', 'the client cancelled the call'));
      return;
    }
    const slot = this.slots.find((s) => s.busy === p);
    if (!slot) return;
    this.replace(slot);
    p.resolve(this.failure(p.call.name, 'TOOL_CANCELLED', 'the client cancelled the call'));
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.busy = undefined;
  }

  /** Kills a slot's worker (its call is abandoned) and starts a fresh one. */
  private replace(slot: Slot): void {
    this.finish(slot);
    void slot.worker.terminate();
    if (this.closed) return;
    this.spawn(slot);
    setImmediate(() => this.dispatch());
  }

  private failure(name: string, code: string, message: string): ToolResult {
    const recorder = new TraceRecorder('tool-call', name);
    const trace = recorder.finish({ code, message });
    this.opts.saveTrace(trace);
    return {
      text: `Error [${code}]: ${message}\n(trace ${trace.id})`,
      structured: { error: { code, message }, trace_id: trace.id },
      traceId: trace.id,
      isError: true,
    };
  }
}
