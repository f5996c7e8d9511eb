import 'server-only';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, isClosedDatabaseError, queryRows } from '@/server/platform/db/client';
import { ROLES } from '@/lib/identity/roles';
import { postAccess, viewerOf } from '@/lib/access/post-access';
import { listSubscriptionsOf } from '@/server/features/profiles';
import { suppressBounce } from './suppressions';
import { decideSubjectTests } from './subject-test';

/**
 * The newsletter sender (docs/decisions/026-newsletter-queue.md). Every instance runs one; they
 * share the letter rows:
 *
 * 1. claim a batch: `FOR UPDATE SKIP LOCKED`, then a lease (claimed_by, claimed_until), so two
 *    senders never hold the same row and a dead sender's rows come free when its lease ends;
 * 2. `sending` is committed just before the SMTP transactions and `sent` right after, a chunk
 *    of letters per statement, at most `concurrency` letters in `sending` at once;
 * 3. a row left in `sending` with its lease over (the sender died mid-transaction) becomes
 *    `uncertain` and is never sent again: the reader may have it. No reader gets two letters;
 *    staff see how many may have got none.
 *
 * Temporary refusals (4xx, no connection) are retried with exponential backoff, permanent ones
 * (5xx) fail the letter, and a 5xx refusal of the address itself suppresses it (reason
 * `bounce`); an error that leaves unknown whether the server took the message makes
 * it `uncertain` too. The pace is a rate per instance (NEWSLETTER_RATE_PER_SECOND).
 */

export type LetterAudience = 'paid' | 'free';

/** One claimed letter, as the composer needs it. */
export type ClaimedLetter = {
  id: string;
  sendId: string;
  contentId: string;
  userId: string;
  email: string;
  name: string;
  audience: LetterAudience;
  attempts: number;
  /** The subject line of a subject test (the sample's variant, or the winner); null: the title. */
  subject: string | null;
  /** The reader lets the letter count opens and clicks (docs/decisions/063-newsletter-analytics.md). */
  tracked: boolean;
};

export type OutgoingLetter = {
  /** The letter's row: its envelope sender names it when NEWSLETTER_BOUNCE_ADDRESS is set. */
  letterId?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** A tracked letter's links (the click redirect's only targets); absent: not tracked. */
  links?: string[];
};

/** Builds the message of one letter (the post is loaded once per send by the composer). */
export type LetterComposer = (letter: ClaimedLetter) => Promise<OutgoingLetter | null>;

/** Hands one message to the mail server; rejects with nodemailer's error shape on refusal. */
export type LetterTransport = {
  send: (message: OutgoingLetter) => Promise<void>;
  close?: () => void;
};

export type DeliveryOptions = {
  /** This sender's name in claimed_by: unique per process. */
  senderId: string;
  compose: LetterComposer;
  transport: LetterTransport;
  /** Letters handed to the mail server per second by this instance. */
  ratePerSecond: number;
  batchSize?: number;
  /** Letters in `sending` at once: handed to the transport, whose pool queues them. */
  concurrency?: number;
  leaseMs?: number;
  maxAttempts?: number;
  /** Backoff after the first temporary failure; doubles each attempt, at most retryMaxMs. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
};

export const DELIVERY_DEFAULTS = {
  batchSize: 500,
  concurrency: 20,
  leaseMs: 120_000,
  maxAttempts: 6,
  retryBaseMs: 60_000,
  retryMaxMs: 6 * 3_600_000,
};

export function newSenderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
}

/** What a refusal means for the letter. */
export type SmtpOutcome = 'retry' | 'permanent' | 'uncertain';

/** Errors raised before the message could reach any server: nothing was sent. */
const NOT_SENT_CODES = new Set(['ECONNECTION', 'EDNS', 'ECONNREFUSED', 'ENOTFOUND', 'EAUTH']);

/**
 * A refusal with a reply code is certain (4xx: try again later; 5xx: never). Without one, only
 * an error from before the message left (no connection, DNS, sign-in) is safe to retry: a
 * connection lost during the transaction may have delivered it, so that letter is uncertain.
 */
export function classifySmtpError(error: unknown): SmtpOutcome {
  const e = (error ?? {}) as { responseCode?: unknown; code?: unknown; command?: unknown };
  const reply = typeof e.responseCode === 'number' ? e.responseCode : null;
  if (reply !== null && reply >= 400 && reply < 500) return 'retry';
  if (reply !== null && reply >= 500) return 'permanent';
  if (typeof e.code === 'string' && NOT_SENT_CODES.has(e.code)) return 'retry';
  if (e.command === 'CONN') return 'retry';
  // Built wrongly on our side (no recipient, bad message): sending again would not help.
  if (e.code === 'EENVELOPE' || e.code === 'EMESSAGE') return 'permanent';
  return 'uncertain';
}

/**
 * A permanent refusal of the recipient itself: a 5xx reply to RCPT TO (the address does not
 * exist, its mailbox is disabled, its domain takes no mail). Not one that says the refusal is of
 * us rather than of the address — an enhanced code of the mail system (5.3.x), the protocol
 * (5.5.x), the content (5.6.x) or security and policy (5.7.x: relay denied, our sender
 * blocked), or a demand to sign
 * in (530, 535) — which would otherwise suppress every reader of a misconfigured site.
 */
export function recipientBounce(error: unknown): string | null {
  const e = (error ?? {}) as { responseCode?: unknown; command?: unknown; response?: unknown };
  if (e.command !== 'RCPT TO' || typeof e.responseCode !== 'number') return null;
  if (e.responseCode < 500 || e.responseCode >= 600 || AUTH_REPLIES.has(e.responseCode)) {
    return null;
  }
  const response = typeof e.response === 'string' ? e.response : String(e.responseCode);
  const subject = /^\d{3}[ -]5\.(\d{1,3})\.\d{1,3}\b/.exec(response)?.[1];
  if (subject !== undefined && NOT_THE_ADDRESS.has(subject)) return null;
  return response.slice(0, 300);
}

const AUTH_REPLIES = new Set([530, 535, 538]);
/**
 * Enhanced status subjects (RFC 3463) about the mail system, the protocol, the message's content
 * or policy, not about the address: a permanent failure with one of them suppresses nobody (here
 * and for the bounces that come back by mail, bounces.ts).
 */
export const NOT_THE_ADDRESS = new Set(['3', '5', '6', '7']);

/** Wait before attempt `attempts + 1` after a temporary failure. */
export function retryDelayMs(
  attempts: number,
  base = DELIVERY_DEFAULTS.retryBaseMs,
  max = DELIVERY_DEFAULTS.retryMaxMs,
): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

/** Paces starts to `ratePerSecond`, sharing one schedule between concurrent workers. */
export function pacer(
  ratePerSecond: number,
  now: () => number,
  sleep: (ms: number) => Promise<void>,
): () => Promise<void> {
  const interval = 1000 / ratePerSecond;
  let next = 0;
  return async () => {
    const at = Math.max(now(), next);
    next = at + interval;
    const wait = at - now();
    if (wait >= 1) await sleep(wait);
  };
}

const iso = (d: Date) => d.toISOString();
/** `a, b, c` for `IN (…)` over uuid columns. */
const uuidList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/**
 * Rows whose sender died: `sending` past its lease becomes `uncertain`, never sent again.
 * (Rows only claimed need nothing: a lapsed lease makes them claimable.)
 */
export async function recoverAbandoned(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE newsletter_letters
        SET status = 'uncertain', claimed_by = NULL, claimed_until = NULL,
            error = 'the sender stopped during the SMTP transaction: the letter may have been delivered'
        WHERE status = 'sending' AND claimed_until < ${iso(now)}::timestamptz
        RETURNING id`,
  );
  return rows.length;
}

/** Claims up to `limit` due letters for this sender, with the reader's name and the post. */
export async function claimLetters(
  db: Db,
  senderId: string,
  limit: number,
  now: Date,
  leaseMs: number,
): Promise<ClaimedLetter[]> {
  const until = new Date(now.getTime() + leaseMs);
  const rows = await queryRows<{
    id: string;
    sendId: string;
    userId: string;
    email: string;
    audience: string;
    attempts: number;
    variant: number | null;
  }>(
    db,
    sql`UPDATE newsletter_letters l
        SET claimed_by = ${senderId}, claimed_until = ${iso(until)}::timestamptz
        WHERE l.id IN (
          SELECT id FROM newsletter_letters
          WHERE status = 'queued' AND next_attempt_at <= ${iso(now)}::timestamptz
            AND (claimed_until IS NULL OR claimed_until < ${iso(now)}::timestamptz)
          ORDER BY next_attempt_at, id
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING l.id, l.send_id AS "sendId", l.user_id AS "userId", l.email, l.audience,
                  l.attempts, l.variant`,
  );
  if (rows.length === 0) return [];
  // The reader as of now: still opted in, not suppressed, and who the site sees them as.
  const userIds = [...new Set(rows.map((r) => r.userId))];
  const sendIds = [...new Set(rows.map((r) => r.sendId))];
  const readers = await queryRows<{
    id: string;
    name: string;
    role: string;
    mayReceive: boolean;
    tracked: boolean;
  }>(
    db,
    sql`SELECT u.id, u.name, u.role,
               NOT EXISTS (SELECT 1 FROM newsletter_tracking_opt_outs t
                           WHERE t.user_id = u.id) AS tracked,
               (p.newsletter AND u.email_verified
                AND NOT EXISTS (SELECT 1 FROM newsletter_suppressions x
                                WHERE x.email = lower(u.email))) AS "mayReceive"
        FROM "user" u JOIN user_private_profiles p ON p.user_id = u.id
        WHERE u.id IN (${sql.join(
          userIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
  const sends = await queryRows<{
    id: string;
    contentId: string;
    status: string;
    subjects: string[] | null;
    winner: number | null;
  }>(
    db,
    sql`SELECT id, content_id AS "contentId", status, subjects, winner FROM newsletter_sends
        WHERE id IN (${uuidList(sendIds)})`,
  );
  const plans = await listSubscriptionsOf(db, userIds);
  const byUser = new Map(readers.map((r) => [r.id, r]));
  const bySend = new Map(sends.map((s) => [s.id, s]));
  const out: ClaimedLetter[] = [];
  const dropped: { id: string; reason: string }[] = [];
  for (const row of rows) {
    const reader = byUser.get(row.userId);
    const send = bySend.get(row.sendId);
    if (!send || send.status === 'cancelled') dropped.push({ id: row.id, reason: 'cancelled' });
    else if (!reader?.mayReceive)
      dropped.push({ id: row.id, reason: 'unsubscribed or suppressed' });
    else
      out.push({
        id: row.id,
        sendId: row.sendId,
        contentId: send.contentId,
        userId: row.userId,
        email: row.email,
        name: reader.name,
        audience: letterAudienceOf(reader, plans.get(row.userId) ?? [], now),
        attempts: Number(row.attempts),
        subject: send.subjects?.[Number(row.variant ?? send.winner ?? -1)] ?? null,
        tracked: reader.tracked,
      });
  }
  for (const d of dropped) await settle(db, d.id, senderId, 'failed', d.reason, null);
  return out;
}

/** A members' post outside the free plan: whoever it opens to reads every post in full. */
const ANY_MEMBERS_POST = { id: '', isPublicPreview: false };

/**
 * Which letter a reader gets, decided as the site decides their pages (the access policy's
 * viewer of their role and plans): the paid reader's letter for a viewer every members' post
 * opens to (a paid plan, one whose payment is being retried, staff), else the free member's,
 * which the policy then fills with each post's free-plan answer (letter.ts).
 */
function letterAudienceOf(
  reader: { role: string },
  subscriptions: Parameters<typeof viewerOf>[1],
  now: Date,
): LetterAudience {
  const role = ROLES.find((r) => r === reader.role) ?? 'member';
  const viewer = viewerOf({ role }, subscriptions, now);
  return postAccess(viewer, ANY_MEMBERS_POST, []).full ? 'paid' : 'free';
}

/** Ends a letter this sender holds: failed (with why), or back to queued for a later try. */
async function settle(
  db: Db,
  id: string,
  senderId: string,
  status: 'failed' | 'queued',
  error: string,
  nextAttemptAt: Date | null,
): Promise<void> {
  await db.execute(
    sql`UPDATE newsletter_letters
        SET status = ${status}, error = ${error.slice(0, 500)}, claimed_by = NULL,
            claimed_until = NULL,
            next_attempt_at = coalesce(${nextAttemptAt ? iso(nextAttemptAt) : null}::timestamptz,
                                       next_attempt_at)
        WHERE id = ${id}::uuid AND claimed_by = ${senderId}`,
  );
}

/**
 * `sending`, committed, only for rows this sender still holds and that are still queued: a
 * sender whose lease lapsed (a long pause) finds the row taken and leaves it. Answers per
 * letter whether it may be sent.
 */
async function markSending(
  db: Db,
  ready: { letter: ClaimedLetter; message: OutgoingLetter }[],
  senderId: string,
  now: Date,
  leaseMs: number,
): Promise<boolean[]> {
  const letters = ready.map((r) => r.letter);
  const paid = letters.filter((l) => l.audience === 'paid').map((l) => l.id);
  // Each tracked letter's links, stored with it: what its click redirect may send to.
  const links = JSON.stringify(
    Object.fromEntries(
      ready.flatMap((r) => (r.message.links ? [[r.letter.id, r.message.links]] : [])),
    ),
  );
  const rows = await queryRows<{ id: string }>(
    db,
    sql`UPDATE newsletter_letters
        SET status = 'sending', attempts = attempts + 1,
            audience = CASE WHEN id IN (${paid.length > 0 ? uuidList(paid) : sql`NULL::uuid`})
                            THEN 'paid' ELSE 'free' END,
            links = CASE WHEN (${links}::jsonb -> id::text) IS NULL THEN NULL
                         ELSE ARRAY(SELECT jsonb_array_elements_text(${links}::jsonb -> id::text))
                    END,
            claimed_until = ${iso(new Date(now.getTime() + leaseMs))}::timestamptz
        WHERE id IN (${uuidList(letters.map((l) => l.id))})
          AND claimed_by = ${senderId} AND status = 'queued'
        RETURNING id`,
  );
  const marked = new Set(rows.map((r) => r.id));
  return letters.map((letter) => marked.has(letter.id));
}

async function markSent(db: Db, ids: string[], now: Date): Promise<void> {
  // `uncertain` too: another instance may have given up on the row meanwhile; it was sent.
  await db.execute(
    sql`UPDATE newsletter_letters
        SET status = 'sent', sent_at = ${iso(now)}::timestamptz, error = NULL,
            claimed_by = NULL, claimed_until = NULL
        WHERE id IN (${uuidList(ids)}) AND status IN ('sending', 'uncertain')`,
  );
}

async function markAfterRefusal(
  db: Db,
  letter: ClaimedLetter,
  error: unknown,
  options: Required<Pick<DeliveryOptions, 'maxAttempts' | 'retryBaseMs' | 'retryMaxMs'>>,
  now: Date,
): Promise<SmtpOutcome> {
  const outcome = classifySmtpError(error);
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  const attempts = letter.attempts + 1;
  const retry = outcome === 'retry' && attempts < options.maxAttempts;
  const status = retry ? 'queued' : outcome === 'uncertain' ? 'uncertain' : 'failed';
  const next = retry
    ? new Date(now.getTime() + retryDelayMs(attempts, options.retryBaseMs, options.retryMaxMs))
    : null;
  await db.execute(
    sql`UPDATE newsletter_letters
        SET status = ${status}, error = ${message}, claimed_by = NULL, claimed_until = NULL,
            next_attempt_at = coalesce(${next ? iso(next) : null}::timestamptz, next_attempt_at)
        WHERE id = ${letter.id}::uuid AND status = 'sending'`,
  );
  // The address is refused for good: no later send tries it again (a reader who fixes it is
  // taken off the list by staff, or by changing the address).
  const bounce = outcome === 'permanent' ? recipientBounce(error) : null;
  if (bounce) await suppressBounce(db, letter.email, bounce);
  return outcome;
}

/** Sends with letters still to go are `sending`; the others `done`. */
async function updateSends(db: Db, sendIds: string[], now: Date): Promise<void> {
  if (sendIds.length === 0) return;
  await db.execute(
    sql`UPDATE newsletter_sends s
        SET status = CASE WHEN open.n > 0 THEN 'sending' ELSE 'done' END,
            finished_at = CASE WHEN open.n > 0 THEN NULL ELSE ${iso(now)}::timestamptz END
        FROM (SELECT x.id, (SELECT count(*) FROM newsletter_letters l
                            WHERE l.send_id = x.id AND l.status IN ('queued', 'held', 'sending')) AS n
              FROM newsletter_sends x
              WHERE x.id IN (${uuidList(sendIds)})) open
        WHERE s.id = open.id AND s.status IN ('queued', 'sending')`,
  );
}

/** Frees the rows this sender claimed but did not start (graceful stop). */
export async function releaseClaims(db: Db, senderId: string): Promise<void> {
  await db.execute(
    sql`UPDATE newsletter_letters SET claimed_by = NULL, claimed_until = NULL
        WHERE claimed_by = ${senderId} AND status = 'queued'`,
  );
}

export type RoundResult = {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  uncertain: number;
  recovered: number;
};

/**
 * One round: recover abandoned rows, claim a batch, send it at the set pace. `stopping` is
 * checked before each letter so a shutdown ends the round without starting new transactions.
 */
export async function deliverRound(
  db: Db,
  options: DeliveryOptions,
  stopping: () => boolean = () => false,
): Promise<RoundResult> {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  const leaseMs = options.leaseMs ?? DELIVERY_DEFAULTS.leaseMs;
  const retry = {
    maxAttempts: options.maxAttempts ?? DELIVERY_DEFAULTS.maxAttempts,
    retryBaseMs: options.retryBaseMs ?? DELIVERY_DEFAULTS.retryBaseMs,
    retryMaxMs: options.retryMaxMs ?? DELIVERY_DEFAULTS.retryMaxMs,
  };
  const result: RoundResult = {
    claimed: 0,
    sent: 0,
    retried: 0,
    failed: 0,
    uncertain: 0,
    recovered: await recoverAbandoned(db, now()),
  };
  // Subject tests whose wait is over release their held letters to this round's claims.
  await decideSubjectTests(db, now());
  // A batch the pace gets through well within the lease, whatever the rate.
  const batch = Math.max(
    1,
    Math.min(
      options.batchSize ?? DELIVERY_DEFAULTS.batchSize,
      Math.floor((options.ratePerSecond * leaseMs) / 1000 / 4),
    ),
  );
  const letters = await claimLetters(db, options.senderId, batch, now(), leaseMs);
  result.claimed = letters.length;
  const pace = pacer(options.ratePerSecond, () => now().getTime(), sleep);
  const composed = async (letter: ClaimedLetter) => {
    try {
      const message = await options.compose(letter);
      if (message) return { letter, message };
    } catch (error) {
      console.error('[newsletter] a letter could not be composed:', error);
    }
    await settle(db, letter.id, options.senderId, 'failed', 'the post could not be read', null);
    result.failed++;
    return null;
  };
  const handOver = async (ready: { letter: ClaimedLetter; message: OutgoingLetter }[]) => {
    const handed: string[] = [];
    await Promise.all(
      ready.map(async ({ letter, message }) => {
        try {
          await options.transport.send(message);
          handed.push(letter.id);
        } catch (error) {
          const outcome = await markAfterRefusal(db, letter, error, retry, now());
          if (outcome === 'retry' && letter.attempts + 1 < retry.maxAttempts) result.retried++;
          else if (outcome === 'uncertain') result.uncertain++;
          else result.failed++;
        }
      }),
    );
    if (handed.length > 0) await markSent(db, handed, now());
    result.sent += handed.length;
  };
  // Letters go in chunks, each marked `sending` in one statement and `sent` in another (a
  // statement per letter was most of a letter's cost), with two chunks in flight so the
  // connections stay busy while one chunk's last replies come in: at most `concurrency` letters
  // are ever in `sending` (and uncertain after a crash). A chunk spans at most a tenth of a
  // second of the rate, so a low rate still sends one letter at a time, evenly paced.
  const concurrency = Math.max(1, options.concurrency ?? DELIVERY_DEFAULTS.concurrency);
  const chunkSize = Math.max(
    1,
    Math.min(Math.floor(concurrency / 2), Math.floor(options.ratePerSecond / 10)),
  );
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < letters.length && !stopping(); i += chunkSize) {
    const ready: { letter: ClaimedLetter; message: OutgoingLetter }[] = [];
    for (const letter of letters.slice(i, i + chunkSize)) {
      const one = await composed(letter);
      if (one) ready.push(one);
    }
    for (const _ of ready) await pace();
    while (inFlight.length >= (concurrency > 1 ? 2 : 1)) await inFlight.shift();
    if (stopping() || ready.length === 0) continue;
    const marked = await markSending(db, ready, options.senderId, now(), leaseMs);
    const handing = handOver(ready.filter((_, j) => marked[j]));
    handing.catch(() => {}); // awaited below; a failure must not count as unhandled meanwhile
    inFlight.push(handing);
  }
  await Promise.all(inFlight);
  if (stopping()) await releaseClaims(db, options.senderId);
  await updateSends(db, [...new Set(letters.map((l) => l.sendId))], now());
  return result;
}

export type SenderHandle = { stop: () => Promise<void>; wake: () => void };

/**
 * Runs rounds until stopped: straight on while there is work, otherwise every `idleMs` (or at
 * once when woken, e.g. right after a send was queued in this process).
 */
export function runSender(db: Db, options: DeliveryOptions & { idleMs?: number }): SenderHandle {
  let stopped = false;
  let wake: (() => void) | null = null;
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      let claimed = 0;
      try {
        claimed = (await deliverRound(db, options, () => stopped)).claimed;
      } catch (error) {
        if (stopped && isClosedDatabaseError(error)) break;
        console.error('[newsletter] a sending round failed:', error);
      }
      if (!stopped && claimed === 0) await idle(options.idleMs ?? 5_000);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
      options.transport.close?.();
    },
    wake: () => wake?.(),
  };
}
