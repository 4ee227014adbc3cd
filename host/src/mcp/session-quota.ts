/** How many MCP HTTP sessions may be open at once. */
export interface SessionLimits {
  /** Open sessions (Streamable HTTP and SSE together) one token may hold. */
  perToken: number;
  /** Open sessions of the whole server, every token together. */
  total: number;
}

/**
 * Defaults: a client opens one session per connection, so 32 leaves room for many editors and
 * agents sharing a token, while one leaked or hostile token can hold at most 32 sessions
 * (each costs a Server and a transport, tens of kilobytes).
 */
export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = { perToken: 32, total: 256 };

/** A granted slot; `release` gives it back (idempotent). */
export interface SessionSlot {
  release(): void;
}

/** Why a slot was refused. */
export interface SessionRefusal {
  /** Which limit was reached. */
  limit: 'per-token' | 'total';
  /** Its value. */
  max: number;
}

/**
 * Counts open MCP sessions per token and in all, and refuses a new one past either limit.
 * A session takes its slot before it is created and gives it back when it ends however it
 * ends (closed by the client, its stream gone, idle, or the server stopping), so the count
 * never drifts. Refusing, rather than evicting an idle session, keeps one client of a shared
 * token from silently ending another's session.
 */
export class SessionQuota {
  private readonly open = new Map<string, number>();
  private count = 0;

  constructor(private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS) {}

  /** Takes a slot for `caller` (a token's identity), or says which limit is reached. */
  take(caller: string): SessionSlot | SessionRefusal {
    const mine = this.open.get(caller) ?? 0;
    if (mine >= this.limits.perToken) return { limit: 'per-token', max: this.limits.perToken };
    if (this.count >= this.limits.total) return { limit: 'total', max: this.limits.total };
    this.open.set(caller, mine + 1);
    this.count++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.count--;
        const left = (this.open.get(caller) ?? 1) - 1;
        if (left > 0) this.open.set(caller, left);
        else this.open.delete(caller);
      },
    };
  }

  /** Open sessions of `caller`, or of everyone when omitted. */
  openSessions(caller?: string): number {
    return caller === undefined ? this.count : (this.open.get(caller) ?? 0);
  }
}

/** True when `take` refused. */
export function isSessionRefusal(r: SessionSlot | SessionRefusal): r is SessionRefusal {
  return 'limit' in r;
}
