'use client';

import { Button } from '@/components/ui/button';
import { useLeavingState } from '@/components/ui/use-leaving-state.client';
import styles from './billing.module.css';

export const CHECKOUT_ENDPOINT = '/api/billing/checkout';
export const CHECKOUT_SUBMIT_LABEL = '確認して申し込む（決済画面へ）';

/**
 * The confirmation screen's form: a plain post to the checkout endpoint, which answers with a
 * redirect to the provider's hosted checkout (so it works without JavaScript). With JavaScript
 * the button only shows a spinner while the next page loads.
 */
export function CheckoutForm({
  planKey,
  next = '/',
  offer,
}: {
  planKey: string;
  next?: string;
  /** The offer's code whose terms the screen states. */
  offer?: string;
}) {
  // Back from the checkout page through the browser's page cache: usable again.
  const [pending, setPending] = useLeavingState();

  return (
    <form
      method="post"
      action={CHECKOUT_ENDPOINT}
      className={styles.checkoutForm}
      onSubmit={(event) => {
        // A second press while the first is on its way would start a second checkout.
        if (pending) event.preventDefault();
        else setPending(true);
      }}
    >
      <input type="hidden" name="plan" value={planKey} />
      {next === '/' ? null : <input type="hidden" name="next" value={next} />}
      {offer ? <input type="hidden" name="offer" value={offer} /> : null}
      <Button type="submit" color="yellow" fullWidth height={52} loading={pending}>
        {CHECKOUT_SUBMIT_LABEL}
      </Button>
    </form>
  );
}
