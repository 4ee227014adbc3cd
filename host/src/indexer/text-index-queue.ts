import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log/logger.js';
import type { GraphStore } from '../store/index.js';

/** Files indexed per transaction; between chunks the event loop serves the plugins. */
const CHUNK = 16;

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
  indexed = 0;

  constructor(
    private readonly store: GraphStore,
    private readonly repoRoot: string,
    private readonly logger?: Logger,
  ) {}

  /** Queues files whose graph is stored. */
  add(paths: Iterable<string>): void {
    for (const p of paths) this.queue.push(p);
    this.running ??= this.drain().finally(() => (this.running = undefined));
  }

  /**
   * Holds indexing while a structural (Phase A) pass streams files: then the host itself is
   * what the plugin waits on, and tokenizing text would only slow the stream. A Phase B pass
   * (a plugin thinking for seconds) or the end of the run lets it go on. Returns the release.
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

  /** Resolves when every queued file is indexed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      while (this.holds > 0) await new Promise<void>((resolve) => (this.released = resolve));
      const chunk = this.queue.splice(0, CHUNK);
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
}
