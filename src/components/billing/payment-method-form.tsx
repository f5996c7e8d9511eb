import { Link } from '@/components/layout/site-link';
import { Button } from '@/components/ui/button';
import styles from '@/components/billing/billing.module.css';
import { CHECKOUT_ENDPOINT } from '@/components/billing/checkout-form.client';
import { METHOD_LABELS, type PurchaseMethod } from '@/lib/billing/purchase';

/**
 * The last step of a one-time sale's final confirmation (docs/decisions/053-one-time-payments.md):
 * that nothing is charged before the provider's page, where the legal notices and the terms
 * below are, the ways to pay (the first chosen), and the button to the provider's checkout. `fields` are
 * the order as the screen showed it, posted as hidden fields; the server prices it again.
 * A plain form: it works without JavaScript.
 */
export function PaymentMethodForm({
  fields,
  methods,
  submitLabel,
  termsHeading,
}: {
  fields: Record<string, string | number | null | undefined>;
  methods: readonly PurchaseMethod[];
  submitLabel: string;
  /** The heading of the terms table further down the screen. */
  termsHeading: string;
}) {
  return (
    <>
      <p>
        <strong>この画面の次の決済画面でお支払いを完了するまで、料金は発生しません。</strong>
      </p>
      <p className={styles.small}>
        お支払いの前に、
        <Link href="/specified-commercial-transactions">特定商取引法に基づく表記</Link>と
        <Link href="/terms">利用規約</Link>、下の「{termsHeading}」をご確認ください。
      </p>
      <form method="post" action={CHECKOUT_ENDPOINT} className={styles.checkoutForm}>
        {Object.entries(fields).map(([name, value]) =>
          value === null || value === undefined ? null : (
            <input key={name} type="hidden" name={name} value={value} />
          ),
        )}
        <fieldset>
          <legend>お支払い方法</legend>
          {methods.map((method, index) => (
            <p key={method}>
              <label>
                <input
                  type="radio"
                  name="method"
                  value={method}
                  defaultChecked={index === 0}
                  required
                />{' '}
                {METHOD_LABELS[method]}
              </label>
            </p>
          ))}
        </fieldset>
        <Button type="submit" color="yellow" fullWidth height={52}>
          {submitLabel}
        </Button>
      </form>
    </>
  );
}
