import 'server-only';
import { env } from '@/env';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { sendMail } from '@/server/platform/mail/mailer';
import { type Letter, type LetterAudience, renderNewsletterLetter } from './letter';
import { letterVersionOf } from './preview';
import { loadFreePlanPostIds } from './sender';
import { unsubscribeUrl } from '@/server/features/profiles';

export const TEST_SUBJECT_PREFIX = '【テスト配信】';

/**
 * The console's test send: the letter as a paid reader gets it (or as `audience` says), to the
 * staff member's own address through the site's mailer, its subject marked 【テスト配信】. The
 * unsubscribe link is the staff member's own, so trying it stops only their newsletter.
 */
export async function sendTestLetter(
  db: Db,
  input: {
    contentId: string;
    to: { id: string; email: string; name: string };
    audience?: LetterAudience;
  },
): Promise<Letter | null> {
  const item = await letterVersionOf(db, input.contentId);
  if (!item) return null;
  const letter = renderNewsletterLetter({
    item,
    audience: input.audience ?? 'paid',
    recipient: { name: input.to.name, email: input.to.email },
    unsubscribeUrl: unsubscribeUrl(input.to.id),
    postUrl: `${env().SITE_URL}/posts/${encodeURIComponent(input.contentId)}`,
    freePlanPostIds: await loadFreePlanPostIds(),
  });
  const subject = `${TEST_SUBJECT_PREFIX}${letter.subject}`;
  await sendMail(db, {
    to: input.to.email,
    subject,
    text: letter.text,
    html: letter.html,
    kind: 'newsletter-test',
    secret: null,
  });
  await recordAudit(db, {
    actor: `user:${input.to.id}`,
    action: 'newsletter-test-sent',
    target: `posts:${input.contentId}`,
    detail: { audience: input.audience ?? 'paid' },
  });
  return { ...letter, subject };
}
