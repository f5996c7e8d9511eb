import 'server-only';
import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { billingSandboxIdempotency } from '@/server/platform/db/schema';
import { StripeApiError, invalidRequest } from './errors';

/**
 * Stripe's `Idempotency-Key` on POST: the first answer to a key is kept and replayed for the
 * same request; the same key with other parameters, or while the first request still runs,
 * is an idempotency_error. Kept in PostgreSQL so every app instance agrees.
 */

const MAX_KEY_LENGTH = 255;

export type StoredAnswer = { status: number; body: string };

export type IdempotencyClaim = { kind: 'new' } | { kind: 'replay'; answer: StoredAnswer };

export function requestHash(method: string, path: string, body: string): string {
  return createHash('sha256').update(`${method}\n${path}\n${body}`).digest('hex');
}

export async function claimIdempotencyKey(
  db: Db,
  key: string,
  hash: string,
  attempt = 0,
): Promise<IdempotencyClaim> {
  if (key.length > MAX_KEY_LENGTH) {
    throw invalidRequest(
      `Invalid Idempotency-Key: keys can be at most ${MAX_KEY_LENGTH} characters.`,
    );
  }
  const inserted = await db
    .insert(billingSandboxIdempotency)
    .values({ key, requestHash: hash })
    .onConflictDoNothing()
    .returning({ key: billingSandboxIdempotency.key });
  if (inserted.length > 0) return { kind: 'new' };
  const rows = await db
    .select({
      requestHash: billingSandboxIdempotency.requestHash,
      status: billingSandboxIdempotency.status,
      response: billingSandboxIdempotency.response,
    })
    .from(billingSandboxIdempotency)
    .where(eq(billingSandboxIdempotency.key, key));
  const row = rows[0];
  // Released meanwhile (the first request failed): claim it again, a bounded number of times.
  if (!row && attempt < 3) return claimIdempotencyKey(db, key, hash, attempt + 1);
  if (row && row.requestHash !== hash) {
    throw new StripeApiError(
      400,
      'idempotency_error',
      `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    );
  }
  if (!row || row.status === null || row.response === null) {
    throw new StripeApiError(
      409,
      'idempotency_error',
      'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ' +
        `${key}. Please try again later.`,
    );
  }
  return { kind: 'replay', answer: { status: row.status, body: row.response } };
}

export async function recordIdempotentAnswer(
  db: Db,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  await db
    .update(billingSandboxIdempotency)
    .set({ status: answer.status, response: answer.body })
    .where(and(eq(billingSandboxIdempotency.key, key), isNull(billingSandboxIdempotency.status)));
}

/** After a failure of our own (500), the key is let go so that a retry runs again, as on Stripe. */
export async function releaseIdempotencyKey(db: Db, key: string): Promise<void> {
  await db
    .delete(billingSandboxIdempotency)
    .where(and(eq(billingSandboxIdempotency.key, key), isNull(billingSandboxIdempotency.status)));
}
