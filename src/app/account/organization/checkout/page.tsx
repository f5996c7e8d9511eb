import '@/styles/base';
import { notFound, redirect } from 'next/navigation';
import { accountMetadata } from '@/components/account/metadata';
import { CheckoutConfirmation } from '@/components/billing/checkout-confirmation';
import { toPlanView } from '@/components/billing/views';
import { CardCheckoutForm } from '@/components/organizations/card-payment';
import { requireUser } from '@/server/features/identity/session';
import { organizationsAdministeredBy } from '@/server/features/organizations';
import {
  cardCheckoutPagePath,
  cardCheckoutTerms,
  organizationPagePath,
} from '@/server/features/invoice-billing';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';

export const dynamic = 'force-dynamic';

export const metadata = accountMetadata(
  'お申し込み内容の確認（法人プラン）',
  '/account/organization',
);

/** How a card organisation's subscription ends: staff cancel it at the provider when asked. */
const CANCEL =
  'サイトの運営者へのご連絡でいつでも解約でき、次回更新日の前日までにご連絡いただければ次回以降の請求はありません。席数は「法人プランの管理」でいつでも変更でき、減らした席は次回の更新から請求しません。';

/**
 * The final confirmation screen (特定商取引法 Article 12-6) before a card organisation's
 * checkout: the individual plans' screen (CheckoutConfirmation) with the seats × the plan's
 * price, from the same terms the checkout uses (card.ts). Only the organisation's admins;
 * anyone else gets the 404 page. An organisation that cannot pay by card now goes back to its page.
 */
export default async function OrganizationCheckoutPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const asked = (await searchParams).org;
  const here = typeof asked === 'string' ? cardCheckoutPagePath(asked) : '/account/organization';
  const user = await requireUser(here);
  const db = await getDb();
  const administered = await organizationsAdministeredBy(db, user.id);
  const chosen = administered.find((o) => o.id === asked);
  if (!chosen) notFound();
  const [terms, flash] = await Promise.all([cardCheckoutTerms(db, chosen.id), readFlash()]);
  if (!terms.ok) redirect(organizationPagePath(chosen.id));
  return (
    <CheckoutConfirmation
      plan={toPlanView(terms.plan)}
      trialDays={0}
      trialOffered={false}
      now={new Date()}
      seats={{ count: terms.seats, cancel: CANCEL }}
      back={{ href: organizationPagePath(chosen.id), label: '法人プランの管理に戻る' }}
      errorMessage={flash?.message ?? null}
      signUp={<CardCheckoutForm organizationId={chosen.id} />}
    />
  );
}
