import { Link } from '@/components/layout/site-link';
import { SubmitButton } from '@/components/ui/button';
import form from '@/components/forms/form.module.css';
import { env } from '@/env';
import type { Viewer } from '@/lib/access/post-access';
import {
  COMMENT_MAX,
  COMMENTS_ANCHOR,
  type CommentEndpoint,
  commentItemPath,
  commentParts,
} from '@/lib/comments';
import { formatDateTime, formatNumber } from '@/lib/format';
import { failure, flashFor, typedIn, FORM_KEY } from '@/lib/http/form-flash';
import { type ShownComment, freeMembersWrite, listItemComments } from '@/server/features/comments';
import { operatorName } from '@/server/features/operator';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { CommentsEnhancer } from './comments-enhancer.client';
import styles from './comments.module.css';

/**
 * The comments of a post, audio or movie (docs/decisions/061-comments.md), rendered on the
 * server for whoever may read the item (the page renders this only then) and cached with the
 * page per audience: nothing here is one reader's. Each form is a plain form post (303 back
 * here with a one-time message); the text is React's, so it is escaped, and only http(s)
 * addresses become links, marked nofollow ugc.
 */

const FORM = 'comment';

/** A comment's text: escaped text, and its http(s) addresses as links. */
function CommentBody({ body }: { body: string }) {
  return (
    <p className={styles.body}>
      {commentParts(body).map((part, index) =>
        part.kind === 'link' ? (
          <a key={index} href={part.href} rel="nofollow ugc noopener" target="_blank">
            {part.href}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}

function BodyField({ id, label, value }: { id: string; label: string; value?: string }) {
  return (
    <div className={form.field}>
      <label className={form.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        name="body"
        className={`${form.control} ${form.textarea}`}
        required
        maxLength={COMMENT_MAX}
        defaultValue={value}
      />
      <p className={form.hint}>
        {formatNumber(COMMENT_MAX)}
        文字まで。http(s) で始まるアドレスはリンクになります。投稿から10分以内なら編集できます。
      </p>
    </div>
  );
}

type Who = { canWrite: boolean; signedIn: boolean };

function CommentItem({
  comment,
  item,
  who,
  reply,
}: {
  comment: ShownComment;
  item: { endpoint: CommentEndpoint; contentId: string };
  who: Who;
  reply: boolean;
}) {
  const headingId = `comment-${comment.id}`;
  return (
    <li className={styles.comment}>
      <article aria-labelledby={headingId}>
        <p className={styles.meta} id={headingId}>
          {comment.pinned ? <span className={styles.pinned}>ピン留め</span> : null}
          <span className={styles.author}>{comment.deleted ? '—' : comment.authorName}</span>
          <time dateTime={comment.createdAt.toISOString()}>
            {formatDateTime(comment.createdAt)}
          </time>
          {comment.edited && !comment.deleted ? <span>（編集済み）</span> : null}
        </p>
        {comment.deleted ? (
          <p className={styles.body}>（このコメントは投稿者が削除しました）</p>
        ) : (
          <CommentBody body={comment.body} />
        )}
        {comment.deleted ? null : (
          <div className={styles.actions}>
            {who.canWrite && !reply ? (
              <details>
                <summary>返信する</summary>
                <form method="post" action="/api/comments" className={styles.form}>
                  <input type="hidden" name={FORM_KEY} value={FORM} />
                  <input type="hidden" name="endpoint" value={item.endpoint} />
                  <input type="hidden" name="postId" value={item.contentId} />
                  <input type="hidden" name="parentId" value={comment.id} />
                  <BodyField id={`reply-${comment.id}`} label="返信" />
                  <SubmitButton>返信を投稿する</SubmitButton>
                </form>
              </details>
            ) : null}
            {who.signedIn ? (
              <details>
                <summary>報告する</summary>
                <form method="post" action="/api/comments/report" className={styles.form}>
                  <input type="hidden" name={FORM_KEY} value={FORM} />
                  <input type="hidden" name="commentId" value={comment.id} />
                  <div className={form.field}>
                    <label className={form.label} htmlFor={`report-${comment.id}`}>
                      理由（任意）
                    </label>
                    <input
                      id={`report-${comment.id}`}
                      name="reason"
                      className={`${form.control} ${form.input}`}
                      maxLength={500}
                    />
                  </div>
                  <SubmitButton color="white">編集部に報告する</SubmitButton>
                </form>
              </details>
            ) : null}
            {who.canWrite ? (
              <details className={styles.own} data-own-for={comment.id}>
                <summary>編集・削除（自分のコメント）</summary>
                <form method="post" action="/api/comments/edit" className={styles.form}>
                  <input type="hidden" name={FORM_KEY} value={FORM} />
                  <input type="hidden" name="commentId" value={comment.id} />
                  <BodyField
                    id={`edit-${comment.id}`}
                    label="コメントを編集"
                    value={comment.body}
                  />
                  <SubmitButton>編集を保存する</SubmitButton>
                </form>
                <form method="post" action="/api/comments/delete" className={styles.form}>
                  <input type="hidden" name={FORM_KEY} value={FORM} />
                  <input type="hidden" name="commentId" value={comment.id} />
                  <SubmitButton color="white">このコメントを削除する</SubmitButton>
                </form>
              </details>
            ) : null}
          </div>
        )}
        {comment.replies.length > 0 ? (
          <ul className={styles.replies} aria-label="返信">
            {comment.replies.map((child) => (
              <CommentItem key={child.id} comment={child} item={item} who={who} reply />
            ))}
          </ul>
        ) : null}
      </article>
    </li>
  );
}

export async function CommentsSection({
  endpoint,
  contentId,
  viewer,
}: {
  endpoint: CommentEndpoint;
  contentId: string;
  /** The access policy's viewer: an audience, never one reader. */
  viewer: Viewer;
}) {
  const db = await getDb();
  const item = { endpoint, contentId };
  // The setting decides only for a free member: staff and paid members always write, and
  // nobody else does (a statement fewer on every staff render, which is never cached).
  const freeMember = viewer.kind === 'member' && !viewer.paid;
  const [list, freeWrite, flash] = await Promise.all([
    listItemComments(db, item),
    freeMember ? freeMembersWrite(db) : false,
    readFlash(),
  ]);
  const signedIn = viewer.kind === 'member' || viewer.kind === 'staff';
  const canWrite =
    viewer.kind === 'staff' || (viewer.kind === 'member' && (viewer.paid || freeWrite));
  const failed = flashFor(failure(flash), FORM);
  const path = commentItemPath(endpoint, contentId);
  const config = env();
  const operator = operatorName(config) ?? config.SITE_NAME;
  return (
    <section id={COMMENTS_ANCHOR} className={styles.block} aria-labelledby="comments-heading">
      <CommentsEnhancer sectionId={COMMENTS_ANCHOR} endpoint={endpoint} contentId={contentId} />
      <h2 id="comments-heading" className={styles.heading}>
        コメント{list.length > 0 ? `（${list.length}）` : ''}
      </h2>
      <p className={styles.note}>
        このコメント欄は {operator}{' '}
        が運営しています。権利の侵害などのご連絡は各コメントの「報告する」か
        <Link href="/contact">お問い合わせ</Link>
        からお寄せください。
      </p>
      {failed?.message ? (
        <p className={form.formError} role="alert">
          {failed.message}
        </p>
      ) : null}
      {canWrite ? (
        <form method="post" action="/api/comments" className={styles.form}>
          <input type="hidden" name={FORM_KEY} value={FORM} />
          <input type="hidden" name="endpoint" value={endpoint} />
          <input type="hidden" name="postId" value={contentId} />
          <BodyField id="comment-body" label="コメントを書く" value={typedIn(failed, 'body')} />
          <SubmitButton>コメントを投稿する</SubmitButton>
        </form>
      ) : viewer.kind === 'anonymous' ? (
        <p className={styles.lead}>
          <Link href={`/login?next=${encodeURIComponent(`${path}#${COMMENTS_ANCHOR}`)}`}>
            ログイン
          </Link>
          するとコメントを書けます（有料会員）。
        </p>
      ) : (
        <p className={styles.lead}>
          コメントを書けるのは有料会員です。<Link href="/service-plans">プランを見る</Link>
        </p>
      )}
      {list.length === 0 ? (
        <p className={styles.lead}>まだコメントはありません。</p>
      ) : (
        <ul className={styles.list}>
          {list.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              item={item}
              who={{ canWrite, signedIn }}
              reply={false}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
