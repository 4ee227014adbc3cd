import type { Logger } from '../log/logger.js';
import { errorCode, PluginErrorCode } from '../plugins/errors.js';
import { PluginSession } from '../plugins/session.js';
import { DEFAULT_TIMEOUTS, type PluginTimeouts } from '../plugins/timeouts.js';
import { resolveLimits } from '../sandbox/limits.js';
import type { Trace } from '../traces/trace.js';
import type { RegisteredModel } from './model-catalog.js';
import { ModelChannelError } from './model-errors.js';

/** Texts per `embed` request: small enough to answer well within a request's time, large enough to batch. */
export const EMBED_BATCH = 32;

/** Options of a model session. */
export interface ModelClientOptions {
  logger: Logger;
  onTrace?: (trace: Trace) => void;
  /** The session's time limits (handshake, initialize — where the model loads —, shutdown). */
  timeouts?: Partial<PluginTimeouts>;
}

/**
 * A running model plugin: its sandboxed session (standard tier: no network, no repository,
 * nothing of the host but the plugin's own files) and the calls of its task. Every failure is a
 * {@link ModelChannelError} that says what happened — a model that cannot load (tampered,
 * corrupt, mismatched), a process that crashed, a model that did not answer in time (it is then
 * stopped) or answered what its manifest does not allow.
 */
export class ModelClient {
  /** The calls in order: a model plugin serves one request at a time, so concurrent callers queue here. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly model: RegisteredModel,
    private readonly session: PluginSession,
  ) {}

  /**
   * Starts the model's session: verifies its files against the registration's tree hash,
   * launches it in its sandbox and has it load the model.
   * @throws ModelChannelError MODEL_UNAVAILABLE
   */
  static async start(model: RegisteredModel, options: ModelClientOptions): Promise<ModelClient> {
    const manifest = model.plugin.manifest;
    try {
      const session = await PluginSession.start({
        plugin: model.plugin,
        corpus: '',
        grant: { tier: 'standard', allowUnsandboxed: false },
        limits: resolveLimits(manifest),
        ...(model.treeHash ? { expectedTreeHash: model.treeHash } : {}),
        // Loading a large model takes longer than an analyzer's initialize.
        timeouts: { ...DEFAULT_TIMEOUTS, requestMs: 120_000, pingIntervalMs: 0, ...options.timeouts },
        logger: options.logger,
        ...(options.onTrace ? { onTrace: options.onTrace } : {}),
      });
      return new ModelClient(model, session);
    } catch (e) {
      throw new ModelChannelError(
        'MODEL_UNAVAILABLE',
        `the ${model.task} model ${model.key} could not be started: ${(e as Error).message}`,
      );
    }
  }

  /**
   * One unit vector per text, in order, {@link EMBED_BATCH} texts per request, each request
   * answered within `timeoutMs` (else the model is stopped: MODEL_TIMEOUT).
   */
  async embed(texts: readonly string[], options: { timeoutMs: number; signal?: AbortSignal }): Promise<Float32Array[]> {
    const dim = this.model.info.dimensions;
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      const batch = texts.slice(i, i + EMBED_BATCH);
      const { vectors } = await this.call(() => this.session.model('embed', { texts: [...batch] }, options));
      if (vectors.length !== batch.length) throw this.invalid(`answered ${vectors.length} vectors for ${batch.length} texts`);
      for (const v of vectors) {
        if (v.length !== dim) throw this.invalid(`answered a vector of ${v.length} dimensions; its manifest says ${String(dim)}`);
        if (!v.every(Number.isFinite)) throw this.invalid('answered a vector holding a value that is not a finite number');
        out.push(Float32Array.from(v));
      }
    }
    return out;
  }

  /** One score per candidate (higher: more relevant), answered within `timeoutMs` (else MODEL_TIMEOUT). */
  async score(query: string, candidates: readonly string[], options: { timeoutMs: number; signal?: AbortSignal }): Promise<number[]> {
    const { scores } = await this.call(() => this.session.model('score', { query, candidates: [...candidates] }, options));
    if (scores.length !== candidates.length) throw this.invalid(`answered ${scores.length} scores for ${candidates.length} candidates`);
    if (!scores.every(Number.isFinite)) throw this.invalid('answered a score that is not a finite number');
    return scores;
  }

  /** Stops the model's process (gracefully, then by signal) once the calls queued before are done. */
  async stop(): Promise<void> {
    await this.queue;
    await this.session.stop();
  }

  /** Runs `request` after the calls before it (one request at a time), with its failure as a ModelChannelError. */
  private call<T>(request: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.settle(request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async settle<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (e) {
      const code = errorCode(e);
      if (code === PluginErrorCode.Timeout)
        throw new ModelChannelError(
          'MODEL_TIMEOUT',
          `the ${this.model.task} model ${this.model.key} did not answer in time and was stopped: ${(e as Error).message}`,
        );
      throw new ModelChannelError('MODEL_UNAVAILABLE', `the ${this.model.task} model ${this.model.key} failed: ${(e as Error).message}`);
    }
  }

  private invalid(what: string): ModelChannelError {
    void this.session.stop();
    return new ModelChannelError(
      'MODEL_OUTPUT_INVALID',
      `the ${this.model.task} model ${this.model.key} ${what}; it was stopped — reinstall or replace the model`,
    );
  }
}
