import { expect } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { user } from '@/server/platform/db/schema';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { listOutbox } from '@/server/platform/mail/mailer';
import { testDatabase } from './route-tests';

/**
 * Shared checks of the public forms that keep a message and mail it (contact, the partner
 * inquiries): the per-address and per-e-mail limits, and that a refused post keeps and sends
 * nothing. Each form's test passes its own way to submit and to read its rows.
 */

type Submit = (email: string, ctx: { ip: string }, n: number) => Promise<FormResult>;
type RowsFrom = (email: string) => Promise<unknown[]>;

/** A fresh client address per call, so the per-IP limit only bites where a test means it to. */
function freshAddresses(): () => { ip: string } {
  let counter = 0;
  return () => ({ ip: `198.51.100.${++counter}` });
}

/** Counts now the form's rows and every mail; the returned check says neither has changed. */
async function expectNothingKept(
  db: Db,
  rowCount: () => Promise<number>,
): Promise<() => Promise<void>> {
  const mailCount = async () => (await listOutbox(db, { limit: 1000 })).length;
  const [rowsBefore, mailsBefore] = [await rowCount(), await mailCount()];
  return async () => {
    expect(await rowCount()).toBe(rowsBefore);
    expect(await mailCount()).toBe(mailsBefore);
  };
}

/**
 * With no staff address set, a post is kept (the caller checks its row) and only acknowledged
 * to the sender.
 */
async function expectOnlyAcknowledged(
  db: Db,
  sent: { staff: string; email: string; kind: string },
  post: () => Promise<FormResult>,
): Promise<void> {
  const staffMailsBefore = (await listOutbox(db, { to: sent.staff })).length;
  expect((await post()).ok).toBe(true);
  expect(await listOutbox(db, { to: sent.staff })).toHaveLength(staffMailsBefore);
  expect((await listOutbox(db, { to: sent.email })).map((m) => m.kind)).toEqual([sent.kind]);
}

/**
 * Five posts from one address pass (post n from ip-limit-n@example.jp); the sixth is answered
 * 429 with the wait message, keeps no row and sends no mail. Returns the sixth answer.
 */
async function expectSixthFromOneAddressRefused(
  db: Db,
  ip: string,
  submit: Submit,
  rowsFrom: RowsFrom,
): Promise<FormResult> {
  for (let n = 1; n <= 5; n++) {
    const result = await submit(`ip-limit-${n}@example.jp`, { ip }, n);
    expect(result.ok, `post ${n}`).toBe(true);
  }
  const sixth = await submit('ip-limit-6@example.jp', { ip }, 6);
  expect(sixth).toMatchObject({ ok: false, status: 429 });
  expect(!sixth.ok && sixth.message).toMatch(/^短時間に何度も試みられたため/);
  expect(await rowsFrom('ip-limit-6@example.jp')).toHaveLength(0);
  expect(await listOutbox(db, { to: 'ip-limit-6@example.jp' })).toHaveLength(0);
  return sixth;
}

/**
 * Three posts from mail-limit@example.jp pass; the fourth, from the same address as the form
 * normalises it (trimmed, lower case), is answered 429 and keeps no row.
 */
async function expectFourthFromOneEmailRefused(
  ctx: () => { ip: string },
  submit: Submit,
  rowsFrom: RowsFrom,
): Promise<void> {
  const email = 'mail-limit@example.jp';
  for (let n = 1; n <= 3; n++) expect((await submit(email, ctx(), n)).ok, `post ${n}`).toBe(true);
  const fourth = await submit(' MAIL-LIMIT@example.jp', ctx(), 4);
  expect(fourth).toMatchObject({ ok: false, status: 429 });
  expect(await rowsFrom(email)).toHaveLength(3);
}

/**
 * A public form's test file: its own database (not the app's), a fresh client address per
 * post, a signed-in member to post as, and the checks above on that database.
 */
export function publicFormTest() {
  const database = testDatabase({ global: false });
  const ctx = freshAddresses();
  return {
    database,
    ctx,
    /** A member row, for a post made signed in; returns the session user the form is given. */
    member: async (id: string, name: string, email: string) => {
      await database.db.insert(user).values({ id, name, email });
      return { id };
    },
    expectNothingKept: (rowCount: () => Promise<number>) =>
      expectNothingKept(database.db, rowCount),
    expectOnlyAcknowledged: (
      sent: { staff: string; email: string; kind: string },
      post: () => Promise<FormResult>,
    ) => expectOnlyAcknowledged(database.db, sent, post),
    expectSixthFromOneAddressRefused: (ip: string, submit: Submit, rowsFrom: RowsFrom) =>
      expectSixthFromOneAddressRefused(database.db, ip, submit, rowsFrom),
    expectFourthFromOneEmailRefused: (submit: Submit, rowsFrom: RowsFrom) =>
      expectFourthFromOneEmailRefused(ctx, submit, rowsFrom),
  };
}
