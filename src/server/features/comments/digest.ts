import 'server-only';
import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { env } from '@/env';
import { JAPAN_OFFSET_MS, isoDateJa } from '@/lib/format';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import {
  cmsSubmissions,
  cmsVersions,
  commentBans,
  commentDigests,
  comments,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import { sendMail } from '@/server/platform/mail/mailer';
import { dear, render } from '@/server/platform/mail/templates';

/**
 * The daily digest (docs/decisions/061-comments.md): each item's author gets one mail of the
 * comments others wrote on their items the previous day (Japan time). The author of an item is
 * its contributor (cms_submissions), else whoever created it on the console (its first
 * version's `user:` actor). Each digest is claimed first (author, day), so several instances and
 * repeated rounds send it once; a mail that could not be sent gives its claim back.
 */

export const DIGEST_ROUND_INTERVAL_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/** The Japan-time day before `now`, and its bounds as instants. */
export function previousDay(now: Date): { day: string; from: Date; to: Date } {
  const to = new Date(
    Math.floor((now.getTime() + JAPAN_OFFSET_MS) / DAY_MS) * DAY_MS - JAPAN_OFFSET_MS,
  );
  const from = new Date(to.getTime() - DAY_MS);
  return { day: isoDateJa(from), from, to };
}

/** The site user who wrote each item, where one is known. */
async function authorsOf(db: Db, items: { endpoint: string; contentId: string }[]) {
  const authors = new Map<string, string>();
  if (items.length === 0) return authors;
  const ids = [...new Set(items.map((item) => item.contentId))];
  const [submitted, created] = await Promise.all([
    db
      .select({
        endpoint: cmsSubmissions.endpoint,
        contentId: cmsSubmissions.contentId,
        authorId: cmsSubmissions.authorId,
      })
      .from(cmsSubmissions)
      .where(inArray(cmsSubmissions.contentId, ids)),
    db
      .selectDistinctOn([cmsVersions.endpoint, cmsVersions.contentId], {
        endpoint: cmsVersions.endpoint,
        contentId: cmsVersions.contentId,
        actor: cmsVersions.actor,
      })
      .from(cmsVersions)
      .where(inArray(cmsVersions.contentId, ids))
      .orderBy(cmsVersions.endpoint, cmsVersions.contentId, asc(cmsVersions.id)),
  ]);
  for (const row of created)
    if (row.actor.startsWith('user:'))
      authors.set(`${row.endpoint}/${row.contentId}`, row.actor.slice(5));
  for (const row of submitted)
    if (row.authorId) authors.set(`${row.endpoint}/${row.contentId}`, row.authorId);
  return authors;
}

/** Sends the previous day's digests not yet sent; answers how many. */
export async function sendCommentDigests(db: Db, now = new Date()): Promise<number> {
  const { day, from, to } = previousDay(now);
  const rows = await db
    .select({
      endpoint: comments.endpoint,
      contentId: comments.contentId,
      userId: comments.userId,
      n: sql<number>`count(*)::int`,
    })
    .from(comments)
    .leftJoin(commentBans, eq(commentBans.userId, comments.userId))
    .where(
      and(
        gte(comments.createdAt, from),
        lt(comments.createdAt, to),
        isNull(comments.hiddenAt),
        isNull(comments.deletedAt),
        isNull(commentBans.userId),
      ),
    )
    .groupBy(comments.endpoint, comments.contentId, comments.userId);
  const authors = await authorsOf(db, rows);
  // Per author: per item, how many comments others wrote.
  const perAuthor = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const key = `${row.endpoint}/${row.contentId}`;
    const author = authors.get(key);
    if (!author || author === row.userId) continue;
    const items = perAuthor.get(author) ?? new Map<string, number>();
    items.set(key, (items.get(key) ?? 0) + row.n);
    perAuthor.set(author, items);
  }
  let sent = 0;
  for (const [author, items] of perAuthor) {
    const [to] = await db
      .select({ email: userPrivateProfiles.email, name: userPublicProfiles.displayName })
      .from(userPrivateProfiles)
      .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, userPrivateProfiles.userId))
      .where(eq(userPrivateProfiles.userId, author));
    if (!to) continue;
    const claimed = await db
      .insert(commentDigests)
      .values({ userId: author, day })
      .onConflictDoNothing()
      .returning({ day: commentDigests.day });
    if (claimed.length === 0) continue;
    const total = [...items.values()].reduce((a, b) => a + b, 0);
    const site = env().SITE_URL;
    try {
      await sendMail(
        db,
        render(to.email, {
          kind: 'comments-digest',
          subject: `昨日の新しいコメント（${total}件）`,
          greeting: dear(to.name ?? ''),
          paragraphs: [
            `${day} に、あなたのコンテンツへ ${total} 件のコメントが届きました。`,
            ...[...items].map(([key, n]) => `${site}/${key}#comments ― ${n} 件`),
            '不適切なコメントは、コンテンツのページの「報告する」または管理画面のコメントから対応できます。',
          ],
          action: { label: 'コメントの管理', url: `${site}/admin/comments` },
        }),
      );
      sent++;
    } catch (error) {
      await db
        .delete(commentDigests)
        .where(and(eq(commentDigests.userId, author), eq(commentDigests.day, day)));
      throw error;
    }
  }
  return sent;
}

const runner = singleton('comment-digest-runner', () => ({ timer: null as NodeJS.Timeout | null }));

/** Every instance runs the rounds; the claims keep them from doubling up. */
export function startCommentDigests(db: Db): void {
  if (runner.timer) return;
  const tick = () =>
    void sendCommentDigests(db).catch((error: unknown) =>
      console.error('[comments] the daily digest failed:', error),
    );
  runner.timer = setInterval(tick, DIGEST_ROUND_INTERVAL_MS);
  runner.timer.unref();
  tick();
}

export function stopCommentDigests(): void {
  if (runner.timer) clearInterval(runner.timer);
  runner.timer = null;
}
