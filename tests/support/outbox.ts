import { expect } from 'vitest';
import type { Db } from '@/server/db/client';
import { listOutbox } from '@/server/mail/mailer';

/** The one message the outbox holds for `to`, checked to be of that kind and stored. */
export async function onlyMailTo(db: Db, to: string, kind: string) {
  const [mail, ...more] = await listOutbox(db, { to });
  expect(more).toHaveLength(0);
  expect(mail).toMatchObject({ kind, status: 'stored' });
  return mail!;
}
