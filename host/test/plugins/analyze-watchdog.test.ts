import { describe, expect, it } from 'vitest';
import { AnalyzeWatchdog, type WatchdogVerdict } from '../../src/plugins/analyze-watchdog.js';

/** Runs a watchdog while `feed` is called every 20 ms, until it expires. */
function watch(limits: { idleMs: number; deadlineMs: number }, feed: (w: AnalyzeWatchdog, tick: number) => void): Promise<WatchdogVerdict> {
  return new Promise((resolve) => {
    let tick = 0;
    let feeder: NodeJS.Timeout | undefined = undefined;
    const w = new AnalyzeWatchdog({
      ...limits,
      inbound: () => ({ bytesIn: tick * 40, framesIn: tick }),
      onExpired: (v) => {
        clearInterval(feeder);
        resolve(v);
      },
    });
    feeder = setInterval(() => feed(w, ++tick), 20);
  });
}

describe('AnalyzeWatchdog', () => {
  it('repeated progress with the same counter is not life: the request goes idle', async () => {
    const v = await watch({ idleMs: 300, deadlineMs: 60_000 }, (w) => w.progress(7));
    expect(v).toEqual({ kind: 'idle', idleMs: 300 });
  });

  it('a counter going back and forth is not life either', async () => {
    const v = await watch({ idleMs: 300, deadlineMs: 60_000 }, (w, tick) => w.progress(tick % 2));
    expect(v.kind).toBe('idle');
  });

  it('advancing progress keeps a request alive, but not past its deadline', async () => {
    const v = await watch({ idleMs: 5_000, deadlineMs: 400 }, (w, tick) => w.progress(tick));
    expect(v).toEqual({ kind: 'deadline', deadlineMs: 400 });
  });

  it('streamed files keep a request alive until the deadline', async () => {
    const v = await watch({ idleMs: 5_000, deadlineMs: 400 }, (w) => w.alive());
    expect(v.kind).toBe('deadline');
  });

  it('a stopped watchdog never fires', async () => {
    let fired = false;
    const w = new AnalyzeWatchdog({
      idleMs: 50,
      deadlineMs: 50,
      inbound: () => ({ bytesIn: 0, framesIn: 0 }),
      onExpired: () => (fired = true),
    });
    w.stop();
    await new Promise((r) => setTimeout(r, 300));
    expect(fired).toBe(false);
  });
});
