import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import usersStyles from '@/components/admin/users/users.module.css';
import form from '@/components/forms/form.module.css';
import { StaffPageHead, StaffSection } from '@/components/admin/staff-list-page';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { SubmitButton } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { type StaffComment, freeMembersWrite, moderationLists } from '@/server/features/comments';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireStaff } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('コメント', '/admin/comments'),
);

/** One moderation button: a plain form post (works without JavaScript), audited on the server. */
function Action({ id, action, label }: { id: string; action: string; label: string }) {
  return (
    <form method="post" action="/api/comments/moderate">
      <input type="hidden" name="commentId" value={id} />
      <input type="hidden" name="action" value={action} />
      <SubmitButton color="white">{label}</SubmitButton>
    </form>
  );
}

function state(comment: StaffComment): string {
  const parts = [
    comment.deleted ? '投稿者が削除' : null,
    comment.hidden ? '非表示' : null,
    comment.pinned ? 'ピン留め' : null,
    comment.banned ? '投稿者を停止中' : null,
    comment.parentId ? '返信' : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('・') : '表示中';
}

function CommentTable({
  rows,
  caption,
  admin,
}: {
  rows: StaffComment[];
  caption: string;
  /** The user screens are the admins' alone. */
  admin: boolean;
}) {
  return (
    <div className={adminStyles.tableWrap}>
      <table className={adminStyles.table}>
        <caption className={usersStyles.muted}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">コメント</th>
            <th scope="col">投稿者・日時</th>
            <th scope="col">状態</th>
            <th scope="col">操作</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((comment) => (
            <tr key={comment.id}>
              <td>
                {/* Plain text, escaped: a comment is never read as markup here either. */}
                <p className={adminStyles.text}>
                  {comment.deleted ? '（削除済み）' : comment.body}
                </p>
                <Link
                  href={`/${comment.endpoint}/${encodeURIComponent(comment.contentId)}#comments`}
                  prefetch={false}
                >
                  {comment.endpoint}/{comment.contentId}
                </Link>
                {comment.openReports > 0 ? (
                  <p>
                    報告 {comment.openReports} 件
                    {comment.reasons.length > 0 ? `：${comment.reasons.join(' / ')}` : ''}
                  </p>
                ) : null}
              </td>
              <td>
                {comment.authorName ?? '（退会した読者）'}
                {admin ? (
                  <>
                    <br />
                    <Link
                      href={`/admin/users/${encodeURIComponent(comment.userId)}`}
                      prefetch={false}
                    >
                      ユーザー
                    </Link>
                  </>
                ) : null}
                <br />
                {formatDateTime(comment.createdAt)}
              </td>
              <td>{state(comment)}</td>
              <td>
                <div className={usersStyles.actions}>
                  {comment.hidden ? (
                    <Action id={comment.id} action="unhide" label="再表示" />
                  ) : (
                    <Action id={comment.id} action="hide" label="非表示にする" />
                  )}
                  {comment.parentId || comment.hidden ? null : comment.pinned ? (
                    <Action id={comment.id} action="unpin" label="ピン留めを外す" />
                  ) : (
                    <Action id={comment.id} action="pin" label="ピン留め" />
                  )}
                  {comment.banned ? (
                    <Action id={comment.id} action="unban" label="投稿者の停止を解除" />
                  ) : (
                    <Action id={comment.id} action="ban" label="投稿者を停止" />
                  )}
                  {comment.openReports > 0 ? (
                    <Action id={comment.id} action="resolve" label="報告を対応済みに" />
                  ) : null}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Comment moderation (docs/decisions/061-comments.md), for editors and admins (everyone else
 * sees the 404 page): the queue of reported comments, the newest comments, and (admins) whether
 * free members may write. Every action is audited and shows on the item's page at once.
 */
export default async function AdminCommentsPage() {
  const viewer = await requireStaff();
  const admin = viewer.role === 'admin';
  const db = await getDb();
  const [lists, freeWrite, received] = await Promise.all([
    moderationLists(db),
    freeMembersWrite(db),
    readFlash(),
  ]);
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="コメント"
        lead="読者のコメントの報告に対応し、非表示・ピン留め・投稿者の停止を行います。操作はすべて監査ログに記録され、記事のページにすぐ反映されます。停止した投稿者のコメントは、過去のものも含めて表示されません。"
      />
      <PageMessages flash={received} />
      <StaffSection id="reports" title={`報告されたコメント（${lists.reported.length}）`}>
        {lists.reported.length === 0 ? (
          <p className={adminStyles.empty}>対応を待っている報告はありません。</p>
        ) : (
          <CommentTable rows={lists.reported} caption="報告の多い順" admin={admin} />
        )}
      </StaffSection>
      <StaffSection id="recent" title="最近のコメント">
        {lists.recent.length === 0 ? (
          <p className={adminStyles.empty}>コメントはまだありません。</p>
        ) : (
          <CommentTable rows={lists.recent} caption="新しい順（最大100件）" admin={admin} />
        )}
      </StaffSection>
      {admin ? (
        <StaffSection id="settings" title="コメントを書ける読者">
          <form method="post" action="/api/comments/settings" className={usersStyles.form}>
            <div className={form.checkRow}>
              <input
                id="free-members-write"
                type="checkbox"
                name="freeMembersWrite"
                className={form.checkbox}
                defaultChecked={freeWrite}
              />
              <label htmlFor="free-members-write">
                無料会員もコメントを書けるようにする（読める記事に限ります。オフのときは有料会員だけ）
              </label>
            </div>
            <div className={usersStyles.actions}>
              <SubmitButton>保存する</SubmitButton>
            </div>
          </form>
        </StaffSection>
      ) : null}
    </div>
  );
}
