/**
 * Every write the crash test sends, with what it wrote and how it ended: `acked` (answered
 * 2xx, or the form route's 303: it must be in the database after the restart), `refused`
 * (answered otherwise before the kill: it must not be), `in-flight` (no answer: the kill cut
 * it, either outcome is allowed, but never half of it).
 */

export type WriteKind = 'sign-up' | 'bookmark' | 'edit' | 'create' | 'webhook';
export const WRITE_KINDS: WriteKind[] = ['sign-up', 'bookmark', 'edit', 'create', 'webhook'];

export type Write = {
  kind: WriteKind;
  /** What it writes to: an address, `posts:ID`, a tag name, an event id. */
  target: string;
  /** What it writes there: `on`/`off` for a bookmark, a title, a tag's status, … */
  value: string;
  outcome: 'pending' | 'acked' | 'refused' | 'in-flight';
  status?: number;
  /** The answer's body (start), or the error. */
  answer?: string;
};

export class Ledger {
  readonly writes: Write[] = [];
  /** Set just before the kill: workers stop, and a request without an answer was in flight. */
  killed = false;
  pendingAtKill = 0;

  markKilled(): void {
    this.killed = true;
    this.pendingAtKill = this.writes.filter((w) => w.outcome === 'pending').length;
  }

  /** Sends one write and records its outcome; the answer's status and body, or null. */
  async send(
    kind: WriteKind,
    target: string,
    value: string,
    request: () => Promise<Response>,
  ): Promise<{ write: Write; status: number; body: string } | null> {
    const write: Write = { kind, target, value, outcome: 'pending' };
    this.writes.push(write);
    try {
      const response = await request();
      const body = await response.text();
      write.status = response.status;
      write.answer = body.slice(0, 300);
      const ok = (response.status >= 200 && response.status < 300) || response.status === 303;
      write.outcome = ok ? 'acked' : 'refused';
      return { write, status: response.status, body };
    } catch (error) {
      // Without an answer: cut by the kill, or a failure of the stream itself.
      write.outcome = this.killed ? 'in-flight' : 'refused';
      write.answer = String(error);
      return null;
    }
  }

  of(kind: WriteKind, outcome?: Write['outcome']): Write[] {
    return this.writes.filter((w) => w.kind === kind && (!outcome || w.outcome === outcome));
  }
}

/**
 * The values a target may hold after the restart, from its writes in the order sent (one at a
 * time per target): the last acknowledged value (or the initial one), or that of a write
 * after it that got no answer. A refused write adds nothing: it must have changed nothing.
 */
export function allowedValues(writes: Write[], initial: string): Set<string> {
  let allowed = new Set([initial]);
  for (const write of writes) {
    if (write.outcome === 'acked') allowed = new Set([write.value]);
    else if (write.outcome === 'in-flight' || write.outcome === 'pending') allowed.add(write.value);
  }
  return allowed;
}
