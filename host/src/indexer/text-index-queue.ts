import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log/logger.js';
import type { GraphStore } from '../store/index.js';

/** Files indexed per transaction; between chunks the event loop serves the plugins. */
const CHUNK = 16;
/** Files per transaction while a structural pass streams (its next frames wait for each). */
const HELD_CHUNK = 4;
/** How long a held pass's stream must have paused before a chunk is indexed in the pause (default). */
const QUIET_MS = 8;

/**
 * Fills the text indexes (whole files and definitions' own lines, for lexical retrieval)
 * off the analysis path: files are queued once their graph is stored and indexed in small
 * chunks between other work, so tokenizing text overlaps the plugins' analysis instead of
 * adding to it. A file whose text cannot be read is left out (retrieval then knows it only by
 * its symbols) and retried by the next run ({@link GraphStore.filesWithoutText}).
 */
export class TextIndexQueue {
  private readonly queue: string[] = [];
  private running: Promise<void> | undefined;
  private holds = 0;
  private released: (() => void) | undefined;
  private lastTraffic = Number.NEGATIVE_INFINITY;
  indexed = 0;

  /** @param quietMs how long a held pass's stream must have paused for a chunk to go in the pause. */
  constructor(
    private readonly store: GraphStore,
    private readonly repoRoot: string,
    private readonly logger?: Logger,
    private readonly quietMs = QUIET_MS,
  ) {}

  /** Queues files whose graph is stored. */
  add(paths: Iterable<string>): void {
    for (const p of paths) this.queue.push(p);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /**
   * Holds indexing while a structural (Phase A) pass streams files, except in the pauses of
   * its stream ({@link traffic}): a plugin whose frames come back to back is waiting on the host,
   * and tokenizing text would only slow it; one that pauses is thinking (lang-python reading
   * Django), and text indexed in its pauses is not left to slow the Phase B that follows. A
   * Phase B pass or the end of the run lets indexing go on freely. Returns the release.
   */
  hold(): () => void {
    this.holds++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.holds === 0) {
        this.released?.();
        this.released = undefined;
      }
    };
  }

  /** A held pass delivered a file just now: indexing waits for a pause in its stream. */
  traffic(): void {
    this.lastTraffic = performance.now();
  }

  /** Resolves when every queued file is indexed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      await this.pause();
      const chunk = this.queue.splice(0, this.holds > 0 ? HELD_CHUNK : CHUNK);
      const entries = chunk.flatMap((path) => {
        try {
          return [{ path, text: readFileSync(join(this.repoRoot, path), 'utf8') }];
        } catch {
          return [];
        }
      });
      try {
        this.indexed += this.store.indexFileTexts(entries);
      } catch (e) {
        this.logger?.log('warn', `the text index of ${chunk.length} file(s) was not written: ${(e as Error).message}`);
      }
    }
  }

  /** Resolves when nothing holds indexing, or a held pass's stream has paused. */
  private async pause(): Promise<void> {
    for (;;) {
      if (this.holds === 0) return;
      const quietFor = performance.now() - this.lastTraffic;
      if (quietFor >= this.quietMs) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.quietMs - quietFor);
        this.released = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.released = undefined;
    }
  }
}
