import 'server-only';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { AppError } from '@/lib/errors';
import { COMMENT_EDIT_MS, type CommentEndpoint } from '@/lib/comments';
import type { Db } from '@/server/platform/db/client';
import { preparedPerDatabase } from '@/server/platform/db/prepared';
import {
  commentBans,
  commentReports,
  comments,
  siteSettings,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { emitContentChange, onContentChange, recentChanges } from '@/server/services/cms/events';
import { type ContentReads, affects, emptyReads } from '@/server/services/cms/reads';
import { deepFreeze } from '@/lib/deep-freeze';
import { singleton } from '@/lib/singleton';
import { TtlCache } from '@/lib/ttl-cache';
import { noteContentReads } from '@/server/features/audience';

/**
 * Readers' comments (docs/decisions/061-comments.md): written, edited and deleted by their
 * writer, hidden, pinned and their writers banned by staff. Pages are cached per audience
 * (docs/decisions/044-purge-what-a-change-showed.md): a page that shows an item's comments notes
 * the pseudo-field `(comments)` of the item, and every change here purges exactly those pages.
 */

export const COMMENTS_FIELD = '(comments)';
export const FREE_WRITE_SETTING = 'comments_free_members_write';

export class CommentError extends AppError {
  constructor(status: 400 | 403 | 404, message: string) {
    super(message, { status, code: 'comment' });
    this.name = 'CommentError';
  }
}

export const NOT_FOUND = 'コメントが見つかりませんでした。削除された可能性があります。';
export const BANNED = 'このアカウントはコメントの投稿を停止されています。';

type Item = { endpoint: CommentEndpoint; contentId: string };

type CommentedItem = { endpoint: string; contentId: string };

/** The next request for any page of the item shows the change (nothing stale is served). */
export function purgeItem(item: CommentedItem): void {
  emitContentChange({
    endpoint: item.endpoint,
    id: item.contentId,
    fields: [COMMENTS_FIELD],
    membership: false,
  });
}

export async function isBanned(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: commentBans.userId })
    .from(commentBans)
    .where(eq(commentBans.userId, userId));
  return !!row;
}

/** Whether free members may write (a console setting; off unless an admin opened it). */
export async function freeMembersWrite(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(eq(siteSettings.key, FREE_WRITE_SETTING));
  return row?.value === 'true';
}

export async function setFreeMembersWrite(
  db: Db,
  open: boolean,
  by: { actor: string; ip: string | null },
): Promise<void> {
  const from = await freeMembersWrite(db);
  const value = String(open);
  await db
    .insert(siteSettings)
    .values({ key: FREE_WRITE_SETTING, value, updatedBy: by.actor })
    .onConflictDoUpdate({
      target: siteSettings.key,
      set: { value, updatedBy: by.actor, updatedAt: new Date() },
    });
  await recordAudit(db, {
    actor: by.actor,
    action: 'setting-changed',
    target: `setting:${FREE_WRITE_SETTING}`,
    ip: by.ip,
    detail: { from, to: open },
  });
  // Every item page's form says who may write.
  for (const endpoint of ['posts', 'audios', 'movies'])
    emitContentChange({ endpoint, id: '*', fields: [COMMENTS_FIELD], membership: false });
}

/** A new comment or reply; a reply's parent must be a shown comment of the same item, not a reply. */
export async function createComment(
  db: Db,
  input: Item & { userId: string; body: string; parentId?: string },
): Promise<{ id: string }> {
  if (input.parentId) {
    const [parent] = await db
      .select({
        endpoint: comments.endpoint,
        contentId: comments.contentId,
        parentId: comments.parentId,
        userId: comments.userId,
        hiddenAt: comments.hiddenAt,
        deletedAt: comments.deletedAt,
      })
      .from(comments)
      .where(eq(comments.id, input.parentId));
    if (
      !parent ||
      // A banned writer's comment is shown nowhere: a reply under it would be lost.
      (await isBanned(db, parent.userId)) ||
      parent.endpoint !== input.endpoint ||
      parent.contentId !== input.contentId ||
      parent.hiddenAt ||
      parent.deletedAt
    )
      throw new CommentError(404, '返信先のコメントが見つかりませんでした。');
    if (parent.parentId)
      throw new CommentError(400, '返信への返信はできません。元のコメントに返信してください。');
  }
  const [row] = await db
    .insert(comments)
    .values({
      endpoint: input.endpoint,
      contentId: input.contentId,
      userId: input.userId,
      body: input.body,
      parentId: input.parentId ?? null,
    })
    .returning({ id: comments.id });
  purgeItem(input);
  return { id: row!.id };
}

async function ownComment(db: Db, id: string, userId: string) {
  const [row] = await db.select().from(comments).where(eq(comments.id, id));
  if (!row || row.deletedAt) throw new CommentError(404, NOT_FOUND);
  if (row.userId !== userId)
    throw new CommentError(403, '自分のコメントだけを編集・削除できます。');
  return row;
}

export async function editComment(
  db: Db,
  input: { id: string; userId: string; body: string; now?: Date },
): Promise<Item> {
  const row = await ownComment(db, input.id, input.userId);
  const now = input.now ?? new Date();
  if (now.getTime() - row.createdAt.getTime() > COMMENT_EDIT_MS)
    throw new CommentError(403, 'コメントを編集できるのは投稿から10分以内です。');
  await db.update(comments).set({ body: input.body, editedAt: now }).where(eq(comments.id, row.id));
  purgeItem(row);
  return row as Item;
}

/** The writer deletes: the text goes; the row stays for the replies under it. */
export async function deleteComment(
  db: Db,
  input: { id: string; userId: string; now?: Date },
): Promise<Item> {
  const row = await ownComment(db, input.id, input.userId);
  await db
    .update(comments)
    .set({ body: '', deletedAt: input.now ?? new Date() })
    .where(eq(comments.id, row.id));
  purgeItem(row);
  return row as Item;
}

/** 「報告する」: one report per member per comment (a second is a no-op). */
export async function reportComment(
  db: Db,
  input: { id: string; userId: string; reason: string },
): Promise<Item> {
  const [row] = await db
    .select({ endpoint: comments.endpoint, contentId: comments.contentId })
    .from(comments)
    .where(and(eq(comments.id, input.id), isNull(comments.deletedAt)));
  if (!row) throw new CommentError(404, NOT_FOUND);
  await db
    .insert(commentReports)
    .values({ commentId: input.id, userId: input.userId, reason: input.reason })
    .onConflictDoNothing();
  return row as Item;
}

export type ShownComment = {
  id: string;
  authorName: string;
  body: string;
  createdAt: Date;
  edited: boolean;
  deleted: boolean;
  pinned: boolean;
  replies: ShownComment[];
};

const LIST_LIMIT = 500;

/** The rows of listItemComments: every render of an item page reads them. */
const itemCommentRows = preparedPerDatabase('item-comments', (db) =>
  db
    .select({
      id: comments.id,
      parentId: comments.parentId,
      body: comments.body,
      createdAt: comments.createdAt,
      editedAt: comments.editedAt,
      deletedAt: comments.deletedAt,
      pinnedAt: comments.pinnedAt,
      // The public profile's name only: never anything private of the writer.
      authorName: userPublicProfiles.displayName,
    })
    .from(comments)
    .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, comments.userId))
    .leftJoin(commentBans, eq(commentBans.userId, comments.userId))
    .where(
      and(
        eq(comments.endpoint, sql.placeholder('endpoint')),
        eq(comments.contentId, sql.placeholder('contentId')),
        isNull(comments.hiddenAt),
        isNull(commentBans.userId),
      ),
    )
    .orderBy(asc(comments.createdAt))
    .limit(LIST_LIMIT)
    .prepare('item_comments'),
);

/**
 * Each item's shown comments, kept as the content API keeps its answers
 * (src/server/services/cms/http.ts): a render that is no audience's cached page (a staff
 * member's, a gift link's, a page the cache renews) reads them here, not from the database.
 * Every change of an item's comments purges its entry as it purges the item's pages, on every
 * instance (the content-change bus); a read begun before such a change is not kept. The TTL is
 * a backstop. One cache per database (tests open several in one process).
 */
type ShownEntry = { comments: readonly ShownComment[]; reads: ContentReads };
const shownCaches = singleton('comments-shown', () => new WeakMap<Db, TtlCache<ShownEntry>>());
const SHOWN_TTL_MS = 30_000;
// At most 200 items' lists of at most 32,000 characters each: a few MB at worst (a long
// thread is read from the database each time, as every list was before).
const SHOWN_ITEMS = 200;
const SHOWN_MAX_CHARS = 32_000;

function shownCache(db: Db): TtlCache<ShownEntry> {
  let cache = shownCaches.get(db);
  if (!cache) {
    const created = new TtlCache<ShownEntry>(SHOWN_TTL_MS, SHOWN_ITEMS);
    onContentChange((change) => created.deleteWhere(({ reads }) => affects(reads, change)));
    shownCaches.set(db, created);
    cache = created;
  }
  return cache;
}

/** What a list of the item's comments read: the item's pseudo-field `(comments)`. */
function commentReads(item: Item): ContentReads {
  const reads = emptyReads();
  reads.items.set(`${item.endpoint}/${item.contentId}`, new Set([COMMENTS_FIELD]));
  return reads;
}

/**
 * The item's comments as its page shows them to whoever may read it: hidden ones and those of
 * banned writers left out, pinned first, then oldest first, each with its replies. A deleted
 * comment stays only as a placeholder for replies under it. Notes the read for the page cache.
 * Shared by every render until a change: frozen.
 */
export async function listItemComments(db: Db, item: Item): Promise<readonly ShownComment[]> {
  const reads = commentReads(item);
  noteContentReads(() => reads);
  const cache = shownCache(db);
  const key = `${item.endpoint}/${item.contentId}`;
  const cached = cache.get(key);
  if (cached) return cached.comments;
  const since = recentChanges.seq;
  const shown = deepFreeze(await readItemComments(db, item));
  if (
    charactersOf(shown) <= SHOWN_MAX_CHARS &&
    !recentChanges.since(since, (change) => affects(reads, change))
  )
    cache.set(key, { comments: shown, reads });
  return shown;
}

const charactersOf = (list: readonly ShownComment[]): number =>
  list.reduce(
    (sum, comment) =>
      sum + comment.body.length + comment.authorName.length + charactersOf(comment.replies),
    0,
  );

async function readItemComments(db: Db, item: Item): Promise<ShownComment[]> {
  const rows = await itemCommentRows(db).execute({
    endpoint: item.endpoint,
    contentId: item.contentId,
  });
  const shown = (row: (typeof rows)[number]): ShownComment => ({
    id: row.id,
    authorName: row.authorName?.trim() || '会員',
    body: row.deletedAt ? '' : row.body,
    createdAt: row.createdAt,
    edited: !!row.editedAt,
    deleted: !!row.deletedAt,
    pinned: !!row.pinnedAt && !row.deletedAt,
    replies: [],
  });
  const top = new Map<string, ShownComment>();
  for (const row of rows) if (!row.parentId) top.set(row.id, shown(row));
  for (const row of rows) {
    if (!row.parentId || row.deletedAt) continue;
    top.get(row.parentId)?.replies.push(shown(row));
  }
  const pinnedAt = new Map(rows.map((row) => [row.id, row.pinnedAt?.getTime() ?? 0]));
  return [...top.values()]
    .filter((comment) => !comment.deleted || comment.replies.length > 0)
    .sort((a, b) => (b.pinned ? pinnedAt.get(b.id)! : 0) - (a.pinned ? pinnedAt.get(a.id)! : 0));
}

/** Which of the item's comments are the viewer's own (for the edit and delete buttons). */
export async function ownCommentIds(db: Db, item: Item, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: comments.id, createdAt: comments.createdAt })
    .from(comments)
    .where(
      and(
        eq(comments.endpoint, item.endpoint),
        eq(comments.contentId, item.contentId),
        eq(comments.userId, userId),
        isNull(comments.deletedAt),
      ),
    );
  return rows.map((row) => row.id);
}

// --- Moderation (staff) -----------------------------------------------------------------

export type ModerationAction = 'hide' | 'unhide' | 'pin' | 'unpin' | 'ban' | 'unban' | 'resolve';

const AUDIT_ACTIONS: Record<ModerationAction, string> = {
  hide: 'comment-hidden',
  unhide: 'comment-unhidden',
  pin: 'comment-pinned',
  unpin: 'comment-unpinned',
  ban: 'commenter-banned',
  unban: 'commenter-unbanned',
  resolve: 'comment-reports-resolved',
};

/** The items a member has commented on: their pages show the member's name. */
export function itemsOfWriter(db: Db, userId: string): Promise<CommentedItem[]> {
  return db
    .selectDistinct({ endpoint: comments.endpoint, contentId: comments.contentId })
    .from(comments)
    .where(eq(comments.userId, userId));
}

/**
 * The pages of these items show the change of a writer (a new display name, an account gone):
 * `items` read with itemsOfWriter, before an account's comments go with it.
 */
export function purgeItems(items: readonly CommentedItem[]): void {
  for (const item of items) purgeItem(item);
}

/**
 * A staff action on a comment (or, for ban/unban, on its writer): done, audited with the staff
 * member, the comment and its writer, and the item's pages purged.
 */
export async function moderate(
  db: Db,
  input: { action: ModerationAction; commentId: string; actor: string; ip: string | null },
): Promise<void> {
  const [row] = await db.select().from(comments).where(eq(comments.id, input.commentId));
  if (!row) throw new CommentError(404, NOT_FOUND);
  const now = new Date();
  const byId = eq(comments.id, row.id);
  let purged: CommentedItem[] = [row];
  switch (input.action) {
    case 'hide':
      await db.update(comments).set({ hiddenAt: now }).where(byId);
      // Dealt with: its open reports leave the queue.
      await resolveReports(db, row.id, input.actor, now);
      break;
    case 'unhide':
      await db.update(comments).set({ hiddenAt: null }).where(byId);
      break;
    case 'pin':
      if (row.parentId) throw new CommentError(400, '返信はピン留めできません。');
      await db.update(comments).set({ pinnedAt: now }).where(byId);
      break;
    case 'unpin':
      await db.update(comments).set({ pinnedAt: null }).where(byId);
      break;
    case 'ban':
      await db
        .insert(commentBans)
        .values({ userId: row.userId, bannedBy: input.actor })
        .onConflictDoNothing();
      await resolveReports(db, row.id, input.actor, now);
      purged = await itemsOfWriter(db, row.userId);
      break;
    case 'unban':
      await db.delete(commentBans).where(eq(commentBans.userId, row.userId));
      purged = await itemsOfWriter(db, row.userId);
      break;
    case 'resolve':
      await resolveReports(db, row.id, input.actor, now);
      purged = [];
      break;
  }
  await recordAudit(db, {
    actor: input.actor,
    action: AUDIT_ACTIONS[input.action],
    target: `comment:${row.id}`,
    ip: input.ip,
    detail: { writer: `user:${row.userId}`, item: `${row.endpoint}/${row.contentId}` },
  });
  purgeItems(purged);
}

function resolveReports(db: Db, commentId: string, actor: string, now: Date) {
  return db
    .update(commentReports)
    .set({ resolvedAt: now, resolvedBy: actor })
    .where(and(eq(commentReports.commentId, commentId), isNull(commentReports.resolvedAt)));
}

export type StaffComment = {
  id: string;
  endpoint: string;
  contentId: string;
  parentId: string | null;
  userId: string;
  authorName: string | null;
  body: string;
  createdAt: Date;
  deleted: boolean;
  hidden: boolean;
  pinned: boolean;
  banned: boolean;
  openReports: number;
  reasons: string[];
};

/**
 * The console's lists: the report queue (comments with open reports, most reported first) and
 * the newest comments, each with its state.
 */
export async function moderationLists(
  db: Db,
  { limit = 100 }: { limit?: number } = {},
): Promise<{ reported: StaffComment[]; recent: StaffComment[] }> {
  const open = await db
    .select({
      commentId: commentReports.commentId,
      n: sql<number>`count(*)::int`,
      reasons: sql<string[]>`array_agg(${commentReports.reason})`,
    })
    .from(commentReports)
    .where(isNull(commentReports.resolvedAt))
    .groupBy(commentReports.commentId)
    .orderBy(desc(sql`count(*)`))
    .limit(limit);
  const reports = new Map(open.map((r) => [r.commentId, r]));
  const staffQuery = () =>
    db
      .select({
        id: comments.id,
        endpoint: comments.endpoint,
        contentId: comments.contentId,
        parentId: comments.parentId,
        userId: comments.userId,
        authorName: userPublicProfiles.displayName,
        body: comments.body,
        createdAt: comments.createdAt,
        deletedAt: comments.deletedAt,
        hiddenAt: comments.hiddenAt,
        pinnedAt: comments.pinnedAt,
        bannedAt: commentBans.createdAt,
      })
      .from(comments)
      .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, comments.userId))
      .leftJoin(commentBans, eq(commentBans.userId, comments.userId));
  const [reportedRows, recentRows] = await Promise.all([
    reports.size > 0 ? staffQuery().where(inArray(comments.id, [...reports.keys()])) : [],
    staffQuery().orderBy(desc(comments.createdAt)).limit(limit),
  ]);
  const staff = (row: (typeof recentRows)[number]): StaffComment => ({
    id: row.id,
    endpoint: row.endpoint,
    contentId: row.contentId,
    parentId: row.parentId,
    userId: row.userId,
    authorName: row.authorName,
    body: row.body,
    createdAt: row.createdAt,
    deleted: !!row.deletedAt,
    hidden: !!row.hiddenAt,
    pinned: !!row.pinnedAt,
    banned: !!row.bannedAt,
    openReports: reports.get(row.id)?.n ?? 0,
    reasons: (reports.get(row.id)?.reasons ?? []).filter(Boolean),
  });
  return {
    reported: reportedRows.map(staff).sort((a, b) => b.openReports - a.openReports),
    recent: recentRows.map(staff),
  };
}
