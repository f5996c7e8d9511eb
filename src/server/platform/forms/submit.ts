import 'server-only';
import type { z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import { type FailedResult, catchRefusal } from '@/server/platform/http/error-answer';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { maskAddress, sendMail } from '@/server/platform/mail/mailer';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { type Limit, consume } from '@/server/platform/rate-limit/limiter';
import { fieldErrors } from '@/lib/zod';

/**
 * The steps the forms share between validating and keeping: the public forms (contact,
 * inquiries) use them all; the account flows (src/server/features/identity) their 400 and 429 answers.
 */

export type PublicFormDeps = {
  db: Db;
  /** The staff address (CONTACT_TO); unset: posts are only kept for the staff screens. */
  contactTo?: string | null;
};
export type PublicFormContext = { ip: string | null };

/** A public form's limits: posts per client address, and per e-mail address typed. */
export type PublicFormLimits = { ip: Limit; email: Limit };

const HOUR = 60 * 60_000;

/**
 * The public forms' budget under a name of its own: 5 posts an hour from one client address
 * and 3 from one e-mail address typed.
 */
export function hourlyFormLimits(name: string): PublicFormLimits {
  return {
    ip: { name: `${name}:ip`, max: 5, windowMs: HOUR },
    email: { name: `${name}:email`, max: 3, windowMs: HOUR },
  };
}

/** The 400 answer of a form, with a message by each field that needs another look. */
export function refusedFields(fieldErrors: Record<string, string>): FailedResult {
  return { ok: false, status: 400, message: '入力内容を確認してください。', fieldErrors };
}

/** The 400 answer of input that does not pass its schema, with a message per field. */
export function invalidInput(error: z.ZodError): FailedResult {
  return refusedFields(fieldErrors(error));
}

/** Counts one attempt against each limit: null when allowed, the 429 answer when over. */
export async function consumeOrRefuse(
  db: Db,
  checks: { limit: Limit; subject: string | null | undefined }[],
): Promise<FormResult | null> {
  return catchRefusal(async () => {
    await consume(db, checks);
    return null;
  });
}

/** Counts one post against the form's limits: null when allowed, the 429 answer when over. */
export function consumeFormLimits(
  db: Db,
  limits: PublicFormLimits,
  ctx: PublicFormContext,
  email: string,
): Promise<FormResult | null> {
  return consumeOrRefuse(db, [
    { limit: limits.ip, subject: addressKey(ctx.ip) },
    { limit: limits.email, subject: email },
  ]);
}

/**
 * Sends a mail whose failure must not fail the post: what was sent is kept already, and the
 * sender must not send it again. The failure is logged with the address masked.
 */
export async function mailQuietly(
  db: Db,
  tag: string,
  build: () => Parameters<typeof sendMail>[1],
): Promise<void> {
  const mail = build();
  try {
    await sendMail(db, mail);
  } catch (error) {
    console.error(`[${tag}] ${mail.kind} to ${maskAddress(mail.to)} not sent:`, error);
  }
}

/**
 * Once a post is kept: the notice to the staff address (when there is one) and the sender's
 * acknowledgement, each best effort (mailQuietly).
 */
export async function mailStaffAndSender(
  deps: PublicFormDeps,
  tag: string,
  mails: {
    toStaff: (staff: string) => Parameters<typeof sendMail>[1];
    toSender: () => Parameters<typeof sendMail>[1];
  },
): Promise<void> {
  const staff = deps.contactTo;
  if (staff) await mailQuietly(deps.db, tag, () => mails.toStaff(staff));
  await mailQuietly(deps.db, tag, mails.toSender);
}

/** A public form (contact, inquiries): how a post is read, counted, kept and mailed. */
export type PublicForm<Fields extends { email: string }> = {
  /** The tag of its log lines. */
  tag: string;
  schema: z.ZodType<Fields>;
  limits: PublicFormLimits;
  /** Keeps the post (of the signed-in user `userId`, if any): the row's time of receipt. */
  keep: (db: Db, fields: Fields, userId: string | null) => Promise<{ createdAt: Date }[]>;
  toStaff: (
    staff: string,
    fields: Fields,
    post: { receivedAt: Date; userId: string | null },
  ) => Parameters<typeof sendMail>[1];
  toSender: (fields: Fields, receivedAt: Date) => Parameters<typeof sendMail>[1];
  /** Where a post that went through leads, and what it says. */
  done: { redirectTo: string; message: string };
};

/**
 * A post to a public form: validated (400 with a message per field), counted against the
 * form's limits (429), kept, then mailed to the staff and acknowledged to the sender; `user` is the sender when signed in. The row
 * is the record; the mails are best effort on top of it (mailStaffAndSender).
 */
export async function submitPublicForm<Fields extends { email: string }>(
  deps: PublicFormDeps,
  form: PublicForm<Fields>,
  input: unknown,
  ctx: PublicFormContext,
  user: { id: string } | null,
): Promise<FormResult> {
  const parsed = form.schema.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  const fields = parsed.data;
  const refused = await consumeFormLimits(deps.db, form.limits, ctx, fields.email);
  if (refused) return refused;
  const userId = user?.id ?? null;
  const [row] = await form.keep(deps.db, fields, userId);
  const receivedAt = row?.createdAt ?? new Date();
  // The post is kept already: a mail that fails must not make the sender send it again.
  await mailStaffAndSender(deps, form.tag, {
    toStaff: (staff) => form.toStaff(staff, fields, { receivedAt, userId }),
    toSender: () => form.toSender(fields, receivedAt),
  });
  return { ok: true, ...form.done };
}

/** The submit function of a public form that is the same for every post (the contact form). */
export function publicFormSubmitter<Fields extends { email: string }>(form: PublicForm<Fields>) {
  return (
    deps: PublicFormDeps,
    input: unknown,
    ctx: PublicFormContext,
    user: { id: string } | null,
  ): Promise<FormResult> => submitPublicForm(deps, form, input, ctx, user);
}
