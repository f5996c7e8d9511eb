import { Link } from '@/components/layout/site-link';
import { Section } from '@/components/account/account-page';
import account from '@/components/account/account-page.module.css';
import { Button } from '@/components/ui/button';

/**
 * 法人プラン paid by card (docs/decisions/059-invoice-billing.md): on the organisation's page,
 * the way to the final confirmation screen while its card payment has not started; on that
 * screen, the plain post that goes on to the provider's checkout (it works without JavaScript).
 */

export const CARD_CHECKOUT_ENDPOINT = '/api/organization/checkout';
export const CARD_CHECKOUT_LABEL = 'カードで支払う';

export function CardPaymentSection({
  seats,
  price,
  confirmHref,
}: {
  seats: number;
  /** The seats' price per period, tax included (planPrice). */
  price: string;
  confirmHref: string;
}) {
  return (
    <Section title="カードでのお支払い">
      <p className={account.state}>
        この法人はカードでお支払いいただく契約です（{seats} 席で {price}
        ）。お支払いの手続きがまだ済んでいません。お支払いが済むと、メンバーが会員限定の記事を読めるようになります。
      </p>
      <p>
        <Link href={confirmHref}>{CARD_CHECKOUT_LABEL}</Link>
      </p>
    </Section>
  );
}

export function CardCheckoutForm({ organizationId }: { organizationId: string }) {
  return (
    <form method="post" action={CARD_CHECKOUT_ENDPOINT}>
      <input type="hidden" name="org" value={organizationId} />
      <Button type="submit" color="yellow" fullWidth height={52}>
        {CARD_CHECKOUT_LABEL}（決済画面へ）
      </Button>
    </form>
  );
}
