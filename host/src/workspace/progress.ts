import type { IndexProgress } from '../indexer/indexer.js';

/** One step of a long command: its stage name, how far it is, and optionally who does it. */
export type ProgressStep = Omit<IndexProgress, 'stage'> & { stage: IndexProgress['stage'] | 'embed' };

/**
 * A one-line progress display on stderr when it is a terminal; nothing in pipes, CI or
 * with --json, so machine output stays clean.
 */
export function progressReporter(enabled: boolean): {
  update: (p: ProgressStep) => void;
  done: () => void;
} {
  if (!enabled) return { update: () => {}, done: () => {} };
  let last = 0;
  let shown = false;
  return {
    update(p) {
      const now = Date.now();
      if (now - last < 100 && p.done !== p.total) return;
      last = now;
      const width = 24;
      const filled = p.total ? Math.round((p.done / p.total) * width) : 0;
      const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
      process.stderr.write(`\r${p.stage.padEnd(8)} ${bar} ${p.done}/${p.total}${p.plugin ? ` ${p.plugin}` : ''}\x1b[K`);
      shown = true;
    },
    done() {
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
