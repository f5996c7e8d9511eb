import type { ReactNode } from 'react';
import styles from '@/components/biz/biz-admin.module.css';
import { PostForm, TextArea } from '@/components/forms/form.client';
import type { Flash } from '@/lib/http/flash';
import { flashFor, typedIn } from '@/lib/http/form-flash';

/**
 * An editor's two decisions on something submitted for review, 「承認して公開」 and 「差し戻す」
 * with a required comment: partners' job listings and contributors' articles. Plain forms to
 * one route that reads `decision` (and `comment`); they work without JavaScript.
 */
export function ReviewDecisionForms({
  action,
  keys,
  hidden,
  flash,
  approveLead,
  commentHint,
}: {
  action: string;
  keys: { approve: string; return: string };
  /** The hidden fields of each form (its form key, the decision, what version it decides). */
  hidden: (key: string, decision: 'approve' | 'return') => ReactNode;
  flash: Flash | null;
  approveLead: string;
  /** Whom the comment is shown to. */
  commentHint: string;
}) {
  const returnFlash = flashFor(flash, keys.return);
  return (
    <div className={styles.reviewForms}>
      <PostForm
        action={action}
        submitLabel="承認して公開"
        initialErrors={flashFor(flash, keys.approve)}
        fullWidthSubmit={false}
      >
        {hidden(keys.approve, 'approve')}
        <p className={styles.lead}>{approveLead}</p>
      </PostForm>
      <PostForm
        action={action}
        submitLabel="差し戻す"
        submitColor="white"
        initialErrors={returnFlash}
        fullWidthSubmit={false}
      >
        {hidden(keys.return, 'return')}
        <TextArea
          name="comment"
          label="差し戻しの理由"
          required
          rows={4}
          maxLength={2000}
          hint={commentHint}
          defaultValue={typedIn(returnFlash, 'comment')}
        />
      </PostForm>
    </div>
  );
}
