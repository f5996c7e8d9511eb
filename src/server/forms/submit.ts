import 'server-only';
import type { z } from '@/lib/zod';
import type { Db } from '@/server/db/client';
import { catchRefusal } from '@/server/http/error-answer';
import type { FormResult } from '@/server/http/form-endpoint';
import { fieldErrors } from '@/server/identity/validation';
import { maskAddress, sendMail } from '@/server/mail/mailer';
import { addressKey } from '@/server/rate-limit/client-address';
import { type Limit, consume } from '@/server/rate-limit/limiter';

/** The steps the public forms (contact, inquiries) share between validating and keeping. */

export type PublicFormDeps = {
  db: Db;
  /** The staff address (CONTACT_TO); unset: posts are only kept for the staff screens. */
  contactTo?: string | null;
};
export type PublicFormContext = { ip: string | null };

/** A public form's limits: posts per client address, and per e-mail address typed. */
export type PublicFormLimits = { ip: Limit; email: Limit };

/** The 400 answer of input that does not pass its schema, with a message per field. */
export function invalidInput(error: z.ZodError): FormResult {
  return {
    ok: false,
    status: 400,
    message: '入力内容を確認してください。',
    fieldErrors: fieldErrors(error),
  };
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
