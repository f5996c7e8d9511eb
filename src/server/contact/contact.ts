import 'server-only';
import { desc } from 'drizzle-orm';
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX, CONTACT_SUBJECTS } from '@/lib/contact';
import { z } from '@/lib/zod';
import type { Db } from '@/server/db/client';
import { contactMessages } from '@/server/db/schema';
import {
  type PublicFormContext,
  type PublicFormDeps,
  type PublicFormLimits,
  consumeFormLimits,
  invalidInput,
  mailStaffAndSender,
} from '@/server/forms/submit';
import { multiLineText, requiredLine } from '@/server/forms/text-fields';
import type { FormResult } from '@/server/http/form-endpoint';
import { emailField } from '@/server/identity/validation';
import { contactAcknowledged, contactReceived } from '@/server/mail/templates';

/**
 * The contact form (/contact → POST /api/contact): validate, rate limit, keep the message,
 * mail it to the staff address when one is configured and acknowledge it to the sender.
 * The database row is the record; the mails are best effort on top of it.
 */

const HOUR = 60 * 60_000;
export const CONTACT_LIMITS = {
  ip: { name: 'contact:ip', max: 5, windowMs: HOUR },
  email: { name: 'contact:email', max: 3, windowMs: HOUR },
} satisfies PublicFormLimits;

export const CONTACT_SENT_PAGE = '/contact?sent=1';

const name = requiredLine('お名前', CONTACT_NAME_MAX);
const subject = z.enum(CONTACT_SUBJECTS, { error: 'お問い合わせの種類を選んでください。' });
const message = multiLineText('お問い合わせ内容', CONTACT_MESSAGE_MAX);

export const contactInput = z.object({ name, email: emailField, subject, message });
export type ContactInput = z.infer<typeof contactInput>;

/** Submits one message; the sender is signed in when `user` is given. */
export async function submitContact(
  deps: PublicFormDeps,
  input: unknown,
  ctx: PublicFormContext,
  user: { id: string } | null,
): Promise<FormResult> {
  const parsed = contactInput.safeParse(input);
  if (!parsed.success) return invalidInput(parsed.error);
  const data = parsed.data;
  const refused = await consumeFormLimits(deps.db, CONTACT_LIMITS, ctx, data.email);
  if (refused) return refused;

  const [row] = await deps.db
    .insert(contactMessages)
    .values({ ...data, userId: user?.id ?? null })
    .returning({ id: contactMessages.id, createdAt: contactMessages.createdAt });
  const receivedAt = row?.createdAt ?? new Date();

  // The message is kept already: a mail that fails must not make the sender send it again.
  await mailStaffAndSender(deps, 'contact', {
    toStaff: (staff) => contactReceived(staff, { ...data, receivedAt, userId: user?.id ?? null }),
    toSender: () => contactAcknowledged(data.email, { subject: data.subject, receivedAt }),
  });

  return {
    ok: true,
    redirectTo: CONTACT_SENT_PAGE,
    message: 'お問い合わせを受け付けました。',
  };
}

export type ContactMessage = {
  id: string;
  createdAt: Date;
  name: string;
  email: string;
  subject: string;
  message: string;
  userId: string | null;
};

/** Received messages, newest first (staff only: the caller checks the role). */
export async function listContactMessages(
  db: Db,
  options: { limit?: number } = {},
): Promise<ContactMessage[]> {
  return db
    .select({
      id: contactMessages.id,
      createdAt: contactMessages.createdAt,
      name: contactMessages.name,
      email: contactMessages.email,
      subject: contactMessages.subject,
      message: contactMessages.message,
      userId: contactMessages.userId,
    })
    .from(contactMessages)
    .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
    .limit(options.limit ?? 200);
}
