import type { ReactNode } from 'react';
import styles from '@/components/biz/biz-admin.module.css';
import { PostForm } from '@/components/forms/form.client';
import { ReviewDecisionForms } from '@/components/forms/review-decision-forms';
import { SUBMISSION_STATE_LABELS } from '@/lib/access/console-permissions';
import { type EditorAccess, consolePaths } from '@/lib/admin-content';
import { formatDateTime } from '@/lib/format';
import type { Flash } from '@/lib/http/flash';
import { FORM_KEY, flashFor } from '@/lib/http/form-flash';

/**
 * A contributor's item under review, above its editor (as partners' job listings are
 * reviewed: src/components/biz/axis-admin/partner-listings.tsx). The author sees its state,
 * the editor's comment when it was returned, and 「審査に提出」; an editor sees the request
 * and the two decisions. Plain forms: they work without JavaScript.
 */

export const REVIEW_FORM_KEYS = {
  submit: 'review-submit',
  approve: 'review-approve',
  return: 'review-return',
} as const;

type Props = {
  endpoint: string;
  id: string;
  /** The item the page shows: a decision on a newer one is refused. */
  updatedAt: string;
  access: EditorAccess;
  flash: Flash | null;
};

export function ReviewPanel({ endpoint, id, updatedAt, access, flash }: Props) {
  const submission = access.submission;
  if (!submission) return null;
  const action = consolePaths.apiReview(endpoint, id);
  const hidden = (key: string, decision: string) => (
    <>
      <input type="hidden" name={FORM_KEY} value={key} />
      <input type="hidden" name="decision" value={decision} />
      <input type="hidden" name="baseUpdatedAt" value={updatedAt} />
    </>
  );
  return (
    <section className={styles.review} aria-labelledby="review-title">
      <h2 id="review-title" className={styles.subTitle}>
        寄稿の審査: {SUBMISSION_STATE_LABELS[submission.state]}
      </h2>
      {submission.submittedAt && submission.state === 'in_review' ? (
        <p className={styles.text}>
          提出日時{' '}
          <time dateTime={submission.submittedAt}>{formatDateTime(submission.submittedAt)}</time>
        </p>
      ) : null}
      {submission.state === 'returned' && submission.reviewComment ? (
        <div className={styles.message} role="note" aria-labelledby="review-comment-title">
          <p id="review-comment-title" className={styles.subTitle}>
            差し戻しの理由
          </p>
          <p className={styles.text}>{submission.reviewComment}</p>
          {submission.mine ? (
            <p className={styles.text}>
              編集者からのコメントです。内容を直して保存し、もう一度「審査に提出」してください。
            </p>
          ) : null}
        </div>
      ) : null}

      {submission.mine && !access.publish ? (
        <AuthorSteps
          state={submission.state}
          form={
            submission.state === 'draft' || submission.state === 'returned' ? (
              <PostForm
                action={action}
                submitLabel="審査に提出"
                initialErrors={flashFor(flash, REVIEW_FORM_KEYS.submit)}
                fullWidthSubmit={false}
              >
                {hidden(REVIEW_FORM_KEYS.submit, 'submit')}
                <p className={styles.lead}>
                  保存した内容を編集者に送ります。未保存の変更は先に「下書きを保存」してください。
                </p>
              </PostForm>
            ) : null
          }
        />
      ) : null}

      {access.publish && submission.state === 'in_review' ? (
        <ReviewDecisionForms
          action={action}
          keys={REVIEW_FORM_KEYS}
          hidden={hidden}
          flash={flash}
          approveLead="承認すると、この内容ですぐに公開されます。"
          commentHint="寄稿者の編集画面にそのまま表示されます。直してほしい点を具体的に書いてください（2,000文字以内）"
        />
      ) : null}
    </section>
  );
}

function AuthorSteps({
  state,
  form,
}: {
  state: NonNullable<EditorAccess['submission']>['state'];
  form: ReactNode;
}) {
  if (state === 'in_review')
    return (
      <p className={styles.text}>
        審査待ちです。編集者の確認が終わるまでお待ちください。内容を変えて保存すると提出は取り下げられ、もう一度「審査に提出」するまで審査されません。
      </p>
    );
  if (state === 'published')
    return (
      <p className={styles.text}>
        編集者が承認し、公開しました。これからの変更は編集部が行います。
      </p>
    );
  return <>{form}</>;
}
