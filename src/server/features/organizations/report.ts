import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { csvFile } from '@/lib/csv';
import { japanMonthKey } from '@/lib/metered/meter';
import type { Db } from '@/server/platform/db/client';
import { userFromHeaders } from '@/server/features/identity';
import { organizationMembers, organizationReads, user } from '@/server/platform/db/schema';

/**
 * The monthly reading report (研修費の記録): per seat, the posts its holder read in a Japan-time
 * month, each post once. A read is noted from the page-view beacon of a seat holder's post page
 * (src/server/features/analytics/view-endpoint.ts): the paid audience's pages come from the
 * shared cache, so the beacon is the one request that names the reader.
 */

/** Notes that a seat holder read a post (nothing for a reader without a seat). */
export async function noteSeatRead(
  db: Db,
  userId: string,
  contentId: string,
  at: Date,
): Promise<void> {
  const [seat] = await db
    .select({ organizationId: organizationMembers.organizationId })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.status, 'active')));
  if (!seat) return;
  await db
    .insert(organizationReads)
    .values({ ...seat, userId, contentId, month: japanMonthKey(at), readAt: at })
    .onConflictDoNothing();
}

/** noteSeatRead for the signed-in reader of a request (the beacon's); never fails the beacon. */
export async function noteSeatReadOf(
  db: Db,
  requestHeaders: Headers,
  contentId: string,
  at: Date,
): Promise<void> {
  try {
    const reader = await userFromHeaders(requestHeaders);
    if (reader) await noteSeatRead(db, reader.id, contentId, at);
  } catch (error) {
    console.warn('[organizations] a seat read could not be noted:', error);
  }
}

export type ReportRow = { name: string; email: string; seat: boolean; posts: number };

/** The month's rows: every seat holder now, and anyone who read that month, by address. */
export async function readingReport(
  db: Db,
  organizationId: string,
  month: string,
): Promise<ReportRow[]> {
  const reads = await db
    .select({ userId: organizationReads.userId, posts: sql<number>`count(*)::int` })
    .from(organizationReads)
    .where(
      and(eq(organizationReads.organizationId, organizationId), eq(organizationReads.month, month)),
    )
    .groupBy(organizationReads.userId);
  const members = await db
    .select({ userId: organizationMembers.userId, status: organizationMembers.status })
    .from(organizationMembers)
    .where(eq(organizationMembers.organizationId, organizationId));
  const ids = [
    ...new Set([
      ...reads.map((r) => r.userId),
      ...members.filter((m) => m.status === 'active').map((m) => m.userId),
    ]),
  ];
  if (ids.length === 0) return [];
  const people = await db
    .select({ id: user.id, name: user.name, email: user.email })
    .from(user)
    .where(inArray(user.id, ids));
  return people
    .map((p) => ({
      name: p.name,
      email: p.email,
      seat: members.some((m) => m.userId === p.id && m.status === 'active'),
      posts: reads.find((r) => r.userId === p.id)?.posts ?? 0,
    }))
    .sort((a, b) => a.email.localeCompare(b.email));
}

export function readingReportCsv(rows: readonly ReportRow[], month: string): string {
  return csvFile(
    ['対象月', '氏名', 'メールアドレス', '席', '読んだ記事数'],
    rows.map((r) => [month, r.name, r.email, r.seat ? '利用中' : '利用終了', r.posts]),
  );
}
