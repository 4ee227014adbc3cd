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

  /** Resolves when every queued file is indexed. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
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
