import { Button } from '@/components/ui/button';
import form from '@/components/forms/form.module.css';
import {
  GIFT_DELIVERY_DAYS_AHEAD,
  GIFT_MESSAGE_MAX,
  type GiftMonths,
  addDaysJa,
  todayJa,
} from '@/lib/billing/gift-plans';
import { EMAIL_MAX } from '@/lib/account-limits';
import { formatYen } from '@/lib/format';
import styles from './gift.module.css';

export type GiftFormValues = {
  months?: string;
  recipient?: string;
  message?: string;
  deliver?: string;
};

/** A field's error under it, named by the control's aria-describedby. */
function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={id} className={form.error}>
      {error}
    </p>
  ) : null;
}

const describedBy = (id: string, error?: string, hint?: boolean) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

/**
 * The gift's order (docs/decisions/054-gift-subscriptions.md): months, to whom, a message and the
 * delivery day, sent by GET to the final confirmation screen, which checks it again (the prices
 * shown here are the catalogue's, for the reader; the server prices the order itself).
 */
export function GiftForm({
  prices,
  values,
  errors,
}: {
  prices: { months: GiftMonths; price: number }[];
  values: GiftFormValues;
  errors: Record<string, string>;
}) {
  const today = todayJa();
  const chosen = values.months ?? '3';
  return (
    <form method="get" action="/gift/confirm" className={form.form} noValidate={false}>
      <fieldset
        className={form.fieldset}
        aria-describedby={describedBy('gift-months', errors.months)}
      >
        <legend className={form.label}>贈る期間</legend>
        <div className={styles.months}>
          {prices.map(({ months, price }) => (
            <label key={months} className={styles.monthChoice}>
              <input
                type="radio"
                name="months"
                value={months}
                defaultChecked={String(months) === chosen}
                required
              />
              <span>
                <strong>{months}か月</strong>
                <span className={styles.monthPrice}>{formatYen(price)}（税込）</span>
                {months === 12 ? <span className={form.hint}>年額プランと同じ価格</span> : null}
              </span>
            </label>
          ))}
        </div>
        <FieldError id="gift-months-error" error={errors.months} />
      </fieldset>
      <div className={form.field}>
        <label htmlFor="gift-recipient" className={form.label}>
          贈る相手のメールアドレス
        </label>
        <p id="gift-recipient-hint" className={form.hint}>
          このアドレスにギフトのお知らせと受け取り用のリンクをお送りします。受け取れるのは、このアドレスで登録・ログインしたアカウントだけです。
        </p>
        <input
          id="gift-recipient"
          name="recipient"
          type="email"
          autoComplete="off"
          required
          maxLength={EMAIL_MAX}
          defaultValue={values.recipient}
          className={form.input}
          aria-invalid={errors.recipient ? true : undefined}
          aria-describedby={describedBy('gift-recipient', errors.recipient, true)}
        />
        <FieldError id="gift-recipient-error" error={errors.recipient} />
      </div>
      <div className={form.field}>
        <label htmlFor="gift-message" className={form.label}>
          メッセージ（任意）
        </label>
        <p id="gift-message-hint" className={form.hint}>
          {GIFT_MESSAGE_MAX}文字まで。お知らせのメールに、あなたの表示名とともに載ります。
        </p>
        <textarea
          id="gift-message"
          name="message"
          rows={4}
          maxLength={GIFT_MESSAGE_MAX}
          defaultValue={values.message}
          className={`${form.input} ${form.textarea}`}
          aria-invalid={errors.message ? true : undefined}
          aria-describedby={describedBy('gift-message', errors.message, true)}
        />
        <FieldError id="gift-message-error" error={errors.message} />
      </div>
      <div className={form.field}>
        <label htmlFor="gift-deliver" className={form.label}>
          お届け日
        </label>
        <p id="gift-deliver-hint" className={form.hint}>
          今日ならお支払いの確認後すぐに、それ以降の日なら当日の朝9時ごろにお送りします（
          {GIFT_DELIVERY_DAYS_AHEAD}日後まで）。
        </p>
        <input
          id="gift-deliver"
          name="deliver"
          type="date"
          required
          min={today}
          max={addDaysJa(today, GIFT_DELIVERY_DAYS_AHEAD)}
          defaultValue={values.deliver ?? today}
          className={form.input}
          aria-invalid={errors.deliver ? true : undefined}
          aria-describedby={describedBy('gift-deliver', errors.deliver, true)}
        />
        <FieldError id="gift-deliver-error" error={errors.deliver} />
      </div>
      <Button type="submit" color="yellow" fullWidth height={52}>
        確認画面へ進む
      </Button>
    </form>
  );
}
