import type { Logger } from '../log/logger.js';
import { registeredModel, type ModelTask, type RegisteredModel } from './model-catalog.js';
import { ModelClient } from './model-client.js';

/** After a model failed to start or answer, how long it stays off before it is tried again. */
const RETRY_AFTER_MS = 60_000;
/** How often the registration is read again (a model added or removed while a server runs). */
const REREAD_AFTER_MS = 30_000;

/**
 * The registered model of one task, its session started on first use and kept warm: what the
 * query side of the semantic layer (the vector channel, the reranker) calls. A model that fails
 * is stopped and left off for a minute, with the reason, so queries never wait on it twice.
 */
export class WarmModel {
  private model: RegisteredModel | undefined;
  private modelReadAt = -Infinity;
  private client: Promise<ModelClient> | undefined;
  private offUntil = -Infinity;
  private offReason = '';
  /** Why the registered model could not be loaded at the last reading of the registration. */
  private unusable: string | undefined;

  constructor(
    readonly task: ModelTask,
    private readonly logger: Logger,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The registered model (read again every 30 s), or undefined. Callers at once share one reading. */
  registered(): Promise<RegisteredModel | undefined> {
    if (this.now() - this.modelReadAt < REREAD_AFTER_MS) return this.reading ?? Promise.resolve(this.model);
    this.modelReadAt = this.now();
    this.reading = this.read().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private reading: Promise<RegisteredModel | undefined> | undefined;

  private async read(): Promise<RegisteredModel | undefined> {
    let next: RegisteredModel | undefined;
    let unusable: string | undefined;
    try {
      next = await registeredModel(this.task);
    } catch (e) {
      unusable = (e as Error).message;
      this.logger.log('warn', unusable);
    }
    // Another model (or none) now: the old one's session is stopped once the calls queued on it are done.
    if (next?.key !== this.model?.key) void this.close();
    this.model = next;
    this.unusable = unusable;
    return next;
  }

  /** Why a model is registered for the task but cannot be loaded (its directory is gone or broken), else undefined. */
  registrationProblem(): string | undefined {
    return this.unusable;
  }

  /** Why the model is off, while it is (after a failure), else undefined. */
  off(): string | undefined {
    return this.now() < this.offUntil ? this.offReason : undefined;
  }

  /**
   * Runs `use` with the model's session (started if need be). A failure turns the model off for
   * a minute and is rethrown; the session is stopped.
   */
  async use<T>(model: RegisteredModel, use: (client: ModelClient) => Promise<T>): Promise<T> {
    try {
      const client = await (this.client ??= ModelClient.start(model, { logger: this.logger }));
      return await use(client);
    } catch (e) {
      this.logger.log('warn', `${(e as Error).message} (the ${this.task} model is left off for a minute; answers go on without it)`);
      this.offReason = (e as Error).message;
      this.offUntil = this.now() + RETRY_AFTER_MS;
      await this.close();
      throw e;
    }
  }

  /** Stops the model's session, if one runs. */
  async close(): Promise<void> {
    const c = this.client;
    this.client = undefined;
    await c?.then((x) => x.stop()).catch(() => undefined);
  }
}
