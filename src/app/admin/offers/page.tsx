import '@/styles/base';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { CreateOfferForm, OfferList } from '@/components/admin/offers/offer-console';
import { StaffPageHead } from '@/components/admin/staff-list-page';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { env } from '@/env';
import { failure } from '@/lib/http/form-flash';
import { listPlans } from '@/server/features/billing/catalogue';
import { listOffers } from '@/server/features/billing/offer-console';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('オファー', '/admin/offers'),
);

/** Offers (admins only; everyone else sees the 404 page): list, copy a link, deactivate, create. */
export default async function OffersPage() {
  await requireAdmin();
  const db = await getDb();
  const [offers, plans, received] = await Promise.all([listOffers(db), listPlans(db), readFlash()]);
  const failed = failure(received);
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="オファー"
        lead="割引のコードとリンクです。リンクから申し込んだ読者には、料金ページと確認画面に割引後の料金が表示されます。"
      />
      <PageMessages flash={received} errorAt="#create-offer" />
      <OfferList
        offers={offers}
        planNames={new Map(plans.map((p) => [p.key, p.name]))}
        siteUrl={env().SITE_URL.replace(/\/+$/, '')}
        now={new Date()}
      />
      <CreateOfferForm plans={plans} flash={failed} />
    </div>
  );
}
