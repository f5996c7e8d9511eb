import 'server-only';
import { env } from '@/env';
import { findEndpoint } from '@/lib/cms/model';
import { recordAudit } from '@/server/audit/audit-log';
import { getContent } from '@/server/cms/store';
import { postSchema } from '@/server/content/schemas';
import type { Db } from '@/server/db/client';
import { sendMail } from '@/server/mail/mailer';
import {
  type Letter,
  type LetterAudience,
  type LetterPost,
  renderNewsletterLetter,
} from './letter';
import { unsubscribeUrl } from './subscription';

/**
 * A post as a letter, read from the content store with its draft (an editor tests the letter
 * before publishing): the post's fields the letter shows, or null when there is no such post.
 */
export async function loadLetterPost(db: Db, contentId: string): Promise<LetterPost | null> {
  let item: unknown;
  try {
    item = await getContent(
      db,
      findEndpoint('posts')!,
      contentId,
      { depth: 1 },
      {
        kind: 'allDrafts',
      },
    );
  } catch {
    return null;
  }
  const parsed = postSchema.safeParse(item);
  return parsed.success ? parsed.data : null;
}

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
  const item = await loadLetterPost(db, input.contentId);
  if (!item) return null;
  const letter = renderNewsletterLetter({
    item,
    audience: input.audience ?? 'paid',
    recipient: { name: input.to.name, email: input.to.email },
    unsubscribeUrl: unsubscribeUrl(input.to.id),
    postUrl: `${env().SITE_URL}/posts/${encodeURIComponent(input.contentId)}`,
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
