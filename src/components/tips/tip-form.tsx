import { Button } from '@/components/ui/button';
import form from '@/components/forms/form.module.css';
import { formatYen } from '@/lib/format';
import { TIP_MAX, TIP_MESSAGE_MAX, TIP_MIN, TIP_PRESETS, tipConfirmPath } from '@/lib/billing/tip';
import styles from './tips.module.css';

/**
 * The tip block's form (チップ, docs/decisions/053-one-time-payments.md): a plain GET form to the
 * tip's final confirmation screen, so that it works without JavaScript and is the same for every
 * reader of a post page cached per audience (nothing in it is the reader's). A preset amount, or
 * one typed in (which wins), and an optional message. The confirmation screen shows it again,
 * filled in, to change the choice.
 */
export function TipForm({
  contentId,
  values,
  error,
}: {
  contentId: string;
  /** The choice to change (the confirmation screen's), as it was sent. */
  values?: { amount?: string; message?: string };
  error?: string | null;
}) {
  const preset = TIP_PRESETS.map(String).includes(values?.amount ?? '')
    ? values!.amount
    : String(TIP_PRESETS[1]);
  const typed = values?.amount && values.amount !== preset ? values.amount : '';
  return (
    <form method="get" action={tipConfirmPath(contentId)} className={styles.form}>
      {error ? (
        <p className={form.formError} role="alert" id="tip-error">
          {error}
        </p>
      ) : null}
      <fieldset className={form.fieldset}>
        <legend className={form.label}>金額（税込）</legend>
        <div className={styles.presets}>
          {TIP_PRESETS.map((amount) => (
            <label key={amount} className={styles.preset}>
              <input
                type="radio"
                name="amount"
                value={amount}
                defaultChecked={String(amount) === preset}
              />
              <span>{formatYen(amount)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className={form.field}>
        <label htmlFor="tip-other" className={form.label}>
          ほかの金額（円）
        </label>
        <input
          id="tip-other"
          name="other"
          type="number"
          inputMode="numeric"
          min={TIP_MIN}
          max={TIP_MAX}
          step={1}
          defaultValue={typed}
          placeholder="例：2000"
          aria-describedby="tip-other-hint"
          aria-invalid={error && typed ? true : undefined}
          className={`${form.input} ${styles.other}`}
        />
        <p id="tip-other-hint" className={form.hint}>
          {formatYen(TIP_MIN)}〜{formatYen(TIP_MAX)}
          の1円単位。入力すると、上で選んだ金額より優先されます。
        </p>
      </div>
      <div className={form.field}>
        <label htmlFor="tip-message" className={form.label}>
          編集部へのメッセージ（任意）
        </label>
        <textarea
          id="tip-message"
          name="message"
          rows={3}
          maxLength={TIP_MESSAGE_MAX}
          defaultValue={values?.message ?? ''}
          aria-describedby="tip-message-hint"
          className={`${form.input} ${styles.message}`}
        />
        <p id="tip-message-hint" className={form.hint}>
          {TIP_MESSAGE_MAX}文字まで。編集部にお届けします（公開はされません）。
        </p>
      </div>
      <Button type="submit" color="yellow" height={48}>
        内容を確認する
      </Button>
    </form>
  );
}

/** The end of every post: 「チップで応援する」. */
export function TipBlock({ contentId }: { contentId: string }) {
  return (
    <section id="tip" className={styles.block} aria-labelledby="tip-heading">
      <h2 id="tip-heading" className={styles.heading}>
        チップで応援する
      </h2>
      <p className={styles.lead}>
        この記事がよかったら、チップで編集部を応援できます。次の画面でお支払い方法を選び、内容を確認してからお支払いに進みます（ログインが必要です）。
      </p>
      <TipForm contentId={contentId} />
    </section>
  );
}
