import { describe, expect, it } from 'vitest';
import { SessionQuota, isSessionRefusal, type SessionSlot } from '../../src/mcp/session-quota.js';

function granted(r: ReturnType<SessionQuota['take']>): SessionSlot {
  if (isSessionRefusal(r)) throw new Error(`refused: ${r.limit}`);
  return r;
}

describe('SessionQuota', () => {
  it('refuses a token past its own limit while other tokens still get slots', () => {
    const q = new SessionQuota({ perToken: 2, total: 10 });
    granted(q.take('a'));
    granted(q.take('a'));
    expect(q.take('a')).toEqual({ limit: 'per-token', max: 2 });
    granted(q.take('b'));
    expect(q.openSessions('a')).toBe(2);
    expect(q.openSessions()).toBe(3);
  });

  it('refuses everyone past the total', () => {
    const q = new SessionQuota({ perToken: 5, total: 2 });
    granted(q.take('a'));
    granted(q.take('b'));
    expect(q.take('c')).toEqual({ limit: 'total', max: 2 });
  });

  it('a released slot can be taken again; releasing twice gives back one slot only', () => {
    const q = new SessionQuota({ perToken: 1, total: 1 });
    const slot = granted(q.take('a'));
    slot.release();
    slot.release();
    expect(q.openSessions()).toBe(0);
    granted(q.take('a'));
    expect(isSessionRefusal(q.take('b'))).toBe(true);
  });
});
