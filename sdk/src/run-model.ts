import {
  DEFAULT_MAX_FRAME_BYTES,
  WireErrorCode,
  WireException,
  type EmbedParams,
  type EmbedResult,
  type HelloResult,
  type InitializeParams,
  type InitializeResult,
  type LogLevel,
  type ScoreParams,
  type ScoreResult,
} from '@travsr/protocol';
import type { Connection, RequestContext } from '@travsr/protocol/node';
import { errorText, PluginSession, type PluginIdentity } from './plugin-session.js';
import { ID_PATTERN, runPluginProcess, SEMVER_PATTERN, type SessionIo } from './process-io.js';

/** What a model plugin's hooks are given when the session starts. */
export interface ModelSessionInfo {
  /** Plugin options from the host's configuration, opaque to the protocol. */
  options: Record<string, unknown>;
  log: (level: LogLevel, message: string, data?: unknown) => void;
}

/**
 * A model plugin: a learned model served to the host over the protocol (`embed` for an
 * embedding model, `score` for a cross-encoder). Give exactly the hooks of the model's task.
 */
export interface ModelDefinition extends PluginIdentity {
  /** Loads the model (on `initialize`); a thrown error fails the session with its message. */
  load?(info: ModelSessionInfo): Promise<void> | void;
  /** One unit-length vector per text, in order. */
  embed?(texts: readonly string[], signal: AbortSignal): Promise<ArrayLike<number>[]>;
  /** One relevance score per candidate, in order; higher is more relevant. */
  score?(query: string, candidates: readonly string[], signal: AbortSignal): Promise<ArrayLike<number>>;
}

/** One protocol session of a model plugin on a pair of streams. Internal: plugins call {@link runModel}. */
export class ModelSession extends PluginSession<ModelDefinition> {
  constructor(def: ModelDefinition, io: SessionIo) {
    super(def, io, DEFAULT_MAX_FRAME_BYTES);
  }

  protected serveMethods(c: Connection): void {
    c.onRequest('embed', (p, ctx) => this.embed(p, ctx));
    c.onRequest('score', (p, ctx) => this.score(p, ctx));
  }

  protected capabilities(): HelloResult['capabilities'] {
    const served: ('embed' | 'score')[] = [];
    if (this.def.embed) served.push('embed');
    if (this.def.score) served.push('score');
    return { phases: [], cancellation: true, progress: false, model: served };
  }

  protected async initialize(params: InitializeParams): Promise<InitializeResult> {
    this.requireState('initialize', false);
    try {
      await this.def.load?.({ options: params.options ?? {}, log: (l, m, d) => this.sendLog(l, m, d) });
    } catch (e) {
      this.io.stderr(`${this.def.id}: the model could not be loaded: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new WireException(WireErrorCode.InternalError, `${this.def.id} could not load its model: ${errorText(e)}`);
    }
    this.state = 'initialized';
    return { languages: [] };
  }

  private async embed(params: EmbedParams, rc: RequestContext): Promise<EmbedResult> {
    this.requireState('embed', true);
    if (!this.def.embed)
      throw new WireException(WireErrorCode.MethodNotFound, `${this.def.id} is not an embedding model: it serves no embed`);
    const signal = AbortSignal.any([rc.signal, this.stopAll.signal]);
    const vectors = await this.serve(() => this.def.embed!(params.texts, signal), 'embed');
    if (vectors.length !== params.texts.length)
      throw new WireException(
        WireErrorCode.InternalError,
        `${this.def.id} returned ${vectors.length} vectors for ${params.texts.length} texts`,
      );
    return { vectors: vectors.map((v) => Array.from(v)) };
  }

  private async score(params: ScoreParams, rc: RequestContext): Promise<ScoreResult> {
    this.requireState('score', true);
    if (!this.def.score) throw new WireException(WireErrorCode.MethodNotFound, `${this.def.id} is not a cross-encoder: it serves no score`);
    const signal = AbortSignal.any([rc.signal, this.stopAll.signal]);
    const scores = await this.serve(() => this.def.score!(params.query, params.candidates, signal), 'score');
    if (scores.length !== params.candidates.length)
      throw new WireException(
        WireErrorCode.InternalError,
        `${this.def.id} returned ${scores.length} scores for ${params.candidates.length} candidates`,
      );
    return { scores: Array.from(scores) };
  }

  /** Runs a model hook; its failure becomes an InternalError answer with the message (the session goes on). */
  private async serve<T>(hook: () => Promise<T>, method: string): Promise<T> {
    try {
      return await hook();
    } catch (e) {
      if (e instanceof WireException) throw e;
      this.io.stderr(`${this.def.id}: ${method} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new WireException(WireErrorCode.InternalError, `${this.def.id} ${method} failed: ${errorText(e)}`);
    }
  }
}

/**
 * The harness a model plugin's entry point calls: speaks the protocol on stdin/stdout
 * (hello, initialize — where the model is loaded —, embed or score, ping, shutdown) and
 * returns when the session ends. Like {@link runAnalyzer}, started by hand it explains
 * itself and exits with code 1.
 *
 * @example
 * ```ts
 * import { runModel } from '@travsr/sdk';
 * await runModel({ id: 'model-tiny', version: '1.0.0', load: () => model.load(), embed: (texts) => model.embed(texts) });
 * ```
 */
export async function runModel(definition: ModelDefinition): Promise<void> {
  await runPluginProcess({ name: 'runModel', kind: 'model' }, definition, definitionProblem(definition), (io) =>
    new ModelSession(definition, io).run(),
  );
}

function definitionProblem(def: ModelDefinition): string | undefined {
  if (typeof def.id !== 'string' || !ID_PATTERN.test(def.id))
    return `id ${JSON.stringify(def.id)} must look like "model-minilm" (lowercase, digits, . _ -)`;
  if (typeof def.version !== 'string' || !SEMVER_PATTERN.test(def.version))
    return `version ${JSON.stringify(def.version)} of ${def.id} must be semver like "1.2.3"`;
  if (!def.embed && !def.score) return `${def.id} defines neither embed nor score`;
  return undefined;
}
