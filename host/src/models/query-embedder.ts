import type { Logger } from '../log/logger.js';
import type { VectorModelInfo } from '../store/index.js';
import type { SemanticReport } from '../retrieval/context-result.js';
import type { ToolCallExtras } from '../tools/tool-runner.js';
import { registeredModel, type RegisteredModel } from './model-catalog.js';
import { ModelClient } from './model-client.js';

/** How long embedding one question may take once the model runs (a query must not wait on a stuck model). */
export const QUERY_EMBED_TIMEOUT_MS = 2_000;
/** After the model failed to start or answer, how long the channel stays off before it tries again. */
const RETRY_AFTER_MS = 60_000;
/** How often the registration is read again (a model added or removed while a server runs). */
const REREAD_AFTER_MS = 30_000;

/**
 * The vector channel's front half, in the process that receives tool calls: embeds a
 * get_context question with the registered embedding model (its session started on the first
 * question and kept warm), before the synchronous tool runs with the vector. Never fails a call:
 * with no model registered it does nothing; with no vectors in the served graphs it says so
 * without starting the model; a model that cannot start, crashes, hangs or answers nonsense is
 * reported in the answer (and tried again a minute later) while retrieval goes on without it.
 */
export class QueryEmbedder {
  private model: RegisteredModel | undefined;
  private modelReadAt = -Infinity;
  private client: Promise<ModelClient> | undefined;
  private offUntil = 0;
  private offReason = '';

  constructor(
    private readonly logger: Logger,
    private readonly options: { timeoutMs?: number; now?: () => number } = {},
  ) {}

  /** What a call of tool `name` gets from the semantic layer (nothing for other tools than get_context). */
  /** `stores`: the stores of the graphs the call reads (their vectors decide whether the model is needed). */
  async prepare(name: string, args: unknown, stores: readonly { vectorModels(): VectorModelInfo[] }[]): Promise<ToolCallExtras> {
    if (name !== 'get_context') return {};
    const query = (args as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string' || query.length === 0) return {};
    const model = await this.registered();
    if (!model) return {};
    const off = (note: string): ToolCallExtras => ({
      semantic: { vector: { model: model.key, hits: 0, ms: 0, note } } satisfies SemanticReport,
    });
    const stored = stores.flatMap((s) => s.vectorModels().map((m) => m.model));
    if (!stored.includes(model.key))
      return off(
        stored.length === 0
          ? `no vectors in this repository: run \`travsr embed\` to use ${model.key}`
          : `this repository's vectors were made by ${[...new Set(stored)].join(', ')}, not by the registered ${model.key}: run \`travsr embed\``,
      );
    if (this.now() < this.offUntil) return off(this.offReason);
    const t0 = this.now();
    try {
      const client = await (this.client ??= ModelClient.start(model, { logger: this.logger }));
      const [vector] = await client.embed([query], { timeoutMs: this.options.timeoutMs ?? QUERY_EMBED_TIMEOUT_MS });
      return { queryVector: { model: model.key, vector: vector! } };
    } catch (e) {
      const reason = `${(e as Error).message} (the vector channel is off for a minute; retrieval goes on without it)`;
      this.logger.log('warn', reason);
      this.offReason = (e as Error).message;
      this.offUntil = this.now() + RETRY_AFTER_MS;
      const failed = this.client;
      this.client = undefined;
      void failed?.then((c) => c.stop()).catch(() => undefined);
      return off(`${this.offReason} — after ${Math.round(this.now() - t0)} ms`);
    }
  }

  /** Stops the model's session, if one runs. */
  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.then((x) => x.stop()).catch(() => undefined);
  }

  private async registered(): Promise<RegisteredModel | undefined> {
    if (this.now() - this.modelReadAt < REREAD_AFTER_MS) return this.model;
    this.modelReadAt = this.now();
    let next: RegisteredModel | undefined;
    try {
      next = await registeredModel('embed');
    } catch (e) {
      this.logger.log('warn', (e as Error).message);
      next = undefined;
    }
    if (next?.key !== this.model?.key || next?.treeHash !== this.model?.treeHash) await this.close();
    this.model = next;
    return next;
  }

  private now(): number {
    return this.options.now?.() ?? performance.now();
  }
}
