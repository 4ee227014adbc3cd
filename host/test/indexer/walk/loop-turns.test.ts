import { describe, expect, it } from 'vitest';
import { LoopTurns } from '../../../src/indexer/walk/index.js';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // holding the event loop, as synchronous file-system work does
  }
}

describe('LoopTurns', () => {
  it('costs nothing while the stretch lasts', () => {
    const turns = new LoopTurns(60_000);
    expect(turns.maybe()).toBeUndefined();
  });

  it('past the stretch, lets waiting callbacks run before the caller goes on, then starts a new stretch', async () => {
    const turns = new LoopTurns(50);
    let ran = false;
    setImmediate(() => {
      ran = true;
    });
    busy(60);
    expect(ran).toBe(false);
    const turn = turns.maybe();
    expect(turn).toBeInstanceOf(Promise);
    await turn;
    expect(ran).toBe(true);
    // A new stretch begins at the turn: asking again at once costs nothing.
    expect(turns.maybe()).toBeUndefined();
  });
});
