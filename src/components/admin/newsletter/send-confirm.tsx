import { Link } from '@/components/layout/site-link';
import staff from '@/components/admin/staff.module.css';
import styles from '@/components/admin/users/users.module.css';
import { Button } from '@/components/ui/button';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  SEGMENT_LABELS,
  type Segment,
  type SendMode,
  type SendView,
  type StepPost,
  newsletterPaths,
} from '@/lib/newsletter/console';
import { SendByline } from './newsletter-step';
import { SubjectTestFields } from './subject-test-fields';

export type SendConfirmProps = {
  post: StepPost;
  segment: Segment;
  mode: SendMode;
  /** Readers the segment reaches now. */
  count: number;
  /** Earlier sends of this post that reached some of the same readers. */
  overlapping: readonly SendView[];
  /** A refused post's message (the resend box left unticked…). */
  error: string | null;
};

/** The question, with the post, the segment and the number of readers in it. */
export function confirmQuestion({
  post,
  segment,
  mode,
  count,
}: Pick<SendConfirmProps, 'post' | 'segment' | 'mode' | 'count'>): string {
  const who = `「${SEGMENT_LABELS[segment]}」の ${formatNumber(count)} 人`;
  const title = post.title || '（無題）';
  return mode === 'now'
    ? `記事「${title}」を${who}に配信します。よろしいですか？`
    : `記事「${title}」を公開と同時に${who}に配信します。よろしいですか？`;
}

/**
 * The confirmation before a send: what goes to whom and how many, and, when the post went to
 * some of the same readers before, a box to tick that says staff mean to send it again. A plain
 * form: it works without JavaScript, and the server checks everything again.
 */
export function SendConfirm(props: SendConfirmProps) {
  const { post, segment, mode, overlapping, error } = props;
  return (
    <form method="post" action={newsletterPaths.apiSend} className={styles.form}>
      <input type="hidden" name="contentId" value={post.id} />
      <input type="hidden" name="segment" value={segment} />
      <input type="hidden" name="mode" value={mode} />
      <p className={styles.sectionTitle} id="newsletter-confirm-question">
        {confirmQuestion(props)}
      </p>
      {mode === 'withPublication' && post.scheduledAt ? (
        <p className={staff.hint}>
          公開予定: <time dateTime={post.scheduledAt}>{formatDateTime(post.scheduledAt)}</time>
          。人数は現在のもので、公開の時点で対象の読者に配信します。予約を取り消すと配信もされません。
        </p>
      ) : null}
      {error ? (
        <p role="alert" className={styles.alert}>
          {error}
        </p>
      ) : null}
      {overlapping.length ? (
        <div className={styles.field}>
          <p className={styles.alert}>
            この記事はすでに次の配信で同じ読者の一部に届いています。もう一度配信すると、その読者には同じ記事が再び届きます。
          </p>
          <ul>
            {overlapping.map((send) => (
              <li key={send.id}>
                {SEGMENT_LABELS[send.segment]}: <SendByline send={send} />
              </li>
            ))}
          </ul>
          <label className={staff.choice}>
            <input type="checkbox" name="resend" value="1" required />
            同じ記事をもう一度配信することを確認しました
          </label>
        </div>
      ) : null}
      <SubjectTestFields title={post.title} />
      <div className={styles.actions}>
        <Button
          type="submit"
          color="yellow"
          width="auto"
          height={44}
          aria-describedby="newsletter-confirm-question"
        >
          {mode === 'now' ? '配信する' : '公開と同時に配信する'}
        </Button>
        <Link href={newsletterPaths.step(post.id)} className={staff.clear}>
          戻る
        </Link>
      </div>
    </form>
  );
}
