import 'server-only';
import { desc } from 'drizzle-orm';
import { CONTACT_MESSAGE_MAX, CONTACT_NAME_MAX, CONTACT_SUBJECTS } from '@/lib/contact';
import { z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import { contactMessages } from '@/server/platform/db/schema';
import {
  type PublicForm,
  hourlyFormLimits,
  publicFormSubmitter,
} from '@/server/platform/forms/submit';
import { multiLineText, requiredLine } from '@/server/platform/forms/text-fields';
import { emailField } from '@/server/features/identity';
import { contactAcknowledged, contactReceived } from '@/server/platform/mail/templates';

/**
 * The contact form (/contact → POST /api/contact): validate, rate limit, keep the message,
 * mail it to the staff address when one is configured and acknowledge it to the sender.
 * The database row is the record; the mails are best effort on top of it.
 */

export const CONTACT_LIMITS = hourlyFormLimits('contact');

export const CONTACT_SENT_PAGE = '/contact?sent=1';

const name = requiredLine('お名前', CONTACT_NAME_MAX);
const subject = z.enum(CONTACT_SUBJECTS, { error: 'お問い合わせの種類を選んでください。' });
const message = multiLineText('お問い合わせ内容', CONTACT_MESSAGE_MAX);

export const contactInput = z.object({ name, email: emailField, subject, message });
export type ContactInput = z.infer<typeof contactInput>;

const CONTACT_FORM: PublicForm<ContactInput> = {
  tag: 'contact',
  schema: contactInput,
  limits: CONTACT_LIMITS,
  keep: (db, data, userId) =>
    db
      .insert(contactMessages)
      .values({ ...data, userId })
      .returning({ createdAt: contactMessages.createdAt }),
  toStaff: (staff, data, post) => contactReceived(staff, { ...data, ...post }),
  toSender: (data, receivedAt) =>
    contactAcknowledged(data.email, { subject: data.subject, receivedAt }),
  done: { redirectTo: CONTACT_SENT_PAGE, message: 'お問い合わせを受け付けました。' },
};

/** Submits one message; the sender is signed in when `user` is given. */
export const submitContact = publicFormSubmitter(CONTACT_FORM);

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
