import { expect } from 'vitest';
import type { Db } from '@/server/platform/db/client';
import { listOutbox } from '@/server/platform/mail/mailer';

/** The one message the outbox holds for `to`, checked to be of that kind and stored. */
export async function onlyMailTo(db: Db, to: string, kind: string) {
  const [mail, ...more] = await listOutbox(db, { to });
  expect(more).toHaveLength(0);
  expect(mail).toMatchObject({ kind, status: 'stored' });
  return mail!;
}

type StoredMail = Awaited<ReturnType<typeof listOutbox>>[number];

/**
 * What a mail says: each of `subject`, `text` and `html` is in that part, and none of
 * `notInText` is in the plain-text body.
 */
export function expectMailSays(
  mail: Pick<StoredMail, 'subject' | 'textBody' | 'htmlBody'>,
  says: { subject?: string[]; text?: string[]; html?: string[]; notInText?: string[] },
): void {
  for (const part of says.subject ?? []) expect(mail.subject).toContain(part);
  for (const part of says.text ?? []) expect(mail.textBody).toContain(part);
  for (const part of says.html ?? []) expect(mail.htmlBody).toContain(part);
  for (const part of says.notInText ?? []) expect(mail.textBody).not.toContain(part);
}
