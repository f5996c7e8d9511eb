import '@/styles/base';
import { notFound } from 'next/navigation';
import { AccountPage, LinkList, Notice, Section } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import {
  InviteSection,
  InvoicesSection,
  MembersSection,
  ReportSection,
  SeatsSection,
} from '@/components/organizations/organization-screen';
import { CardPaymentSection } from '@/components/organizations/card-payment';
import { planPrice } from '@/components/billing/billing-format';
import { japanMonthKey } from '@/lib/metered/meter';
import { doneMessage, failure, flashFor, typedIn } from '@/lib/http/form-flash';
import { requireUser } from '@/server/features/identity/session';
import {
  listMembers,
  organizationById,
  organizationsAdministeredBy,
  seatsSuspended,
} from '@/server/features/organizations';
import {
  applyReturnedCheckout,
  cardCheckoutPagePath,
  cardCheckoutTerms,
  organizationInvoiceList,
  quotePathOf,
} from '@/server/features/invoice-billing';
import { getDb } from '@/server/platform/db/client';
import { formatDateJa } from '@/lib/format';
import { env } from '@/env';
import { readFlash } from '@/server/platform/http/read-flash';

export const metadata = accountMetadata('法人プランの管理', '/account/organization');

/** The last 12 Japan-time months, newest first (`YYYY-MM`). */
function lastMonths(now: Date): string[] {
  const [year, month] = japanMonthKey(now).split('-').map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, i) => {
    const at = new Date(Date.UTC(year, month - 1 - i, 1));
    return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

/**
 * The organisation admin's screen (docs/decisions/058-organizations.md): only that
 * organisation's admins see it; anyone else gets the 404 page, as for a page that is not there.
 * An admin of several picks one with `?org=ID`.
 */
export default async function OrganizationPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser('/account/organization');
  const db = await getDb();
  const administered = await organizationsAdministeredBy(db, user.id);
  const { org: asked, session_id: returned } = await searchParams;
  const chosen =
    typeof asked === 'string' ? administered.find((o) => o.id === asked) : administered[0];
  if (!chosen) notFound();
  // Back from a card checkout: applied now if the provider says it is paid (the webhook's code).
  const before = await organizationById(db, chosen.id);
  if (before && typeof returned === 'string') await applyReturnedCheckout(db, before, returned);
  const [org, members, flash] = await Promise.all([
    organizationById(db, chosen.id),
    listMembers(db, chosen.id),
    readFlash(),
  ]);
  if (!org) notFound();
  const [invoices, quoteHref, card] = await Promise.all([
    organizationInvoiceList(db, org),
    quotePathOf(db, org),
    org.billing === 'card' && !org.providerSubscriptionId ? cardCheckoutTerms(db, org.id) : null,
  ]);
  const overdue = org.overdueSince;
  const suspended = seatsSuspended(overdue, new Date());
  const suspendsAt = overdue
    ? new Date(overdue.getTime() + env().INVOICE_GRACE_DAYS * 86_400_000)
    : null;
  const used = members.filter((m) => m.status === 'active').length;
  const done = doneMessage(flash);
  const failed = failure(flash);
  const inviteFailed = flashFor(flash, 'organization-invite') ?? failed;
  const seatsFailed = flashFor(flash, 'organization-seats');
  return (
    <AccountPage title="法人プランの管理" lead={<p>{org.name}</p>}>
      {overdue && suspendsAt ? (
        <Notice tone="error">
          <p>
            {org.billing === 'card'
              ? suspended
                ? `${formatDateJa(overdue)}の更新料金をカードで決済できなかったため、メンバーの方はいま有料記事を読めません。決済が完了し次第、すぐに読めるようになります。カードの変更はサイトの運営者にご連絡ください。`
                : `${formatDateJa(overdue)}の更新料金をカードで決済できませんでした（数日おきに自動で再試行します）。${formatDateJa(suspendsAt)}までに決済できない場合、メンバーの方は有料記事を読めなくなります。`
              : suspended
                ? `お支払期限（${formatDateJa(overdue)}）を過ぎた請求書が未払いのため、メンバーの方はいま有料記事を読めません。ご入金が確認でき次第、すぐに読めるようになります。`
                : `お支払期限（${formatDateJa(overdue)}）を過ぎた請求書があります。${formatDateJa(suspendsAt)}までにご入金が確認できない場合、メンバーの方は有料記事を読めなくなります。`}
          </p>
        </Notice>
      ) : null}
      {done ? (
        <Notice>
          <p>{done}</p>
        </Notice>
      ) : null}
      {typeof returned === 'string' && org.billing === 'card' ? (
        <Notice>
          <p>
            {org.providerSubscriptionId
              ? `カードでのお支払いが完了しました。${org.seats} 席をお使いいただけます。`
              : 'お支払いを確認しています。反映まで少し時間がかかることがあります。'}
          </p>
        </Notice>
      ) : null}
      {failed ? (
        <Notice tone="error">
          <p>{failed.message}</p>
        </Notice>
      ) : null}
      {administered.length > 1 ? (
        <Section title="管理している法人">
          <LinkList
            links={administered.map((o) => ({
              href: `/account/organization?org=${encodeURIComponent(o.id)}`,
              label: o.name,
            }))}
          />
        </Section>
      ) : null}
      {card?.ok ? (
        <CardPaymentSection
          seats={card.seats}
          price={planPrice({ ...card.plan, amount: card.plan.amount * card.seats })}
          confirmHref={cardCheckoutPagePath(org.id)}
        />
      ) : null}
      <SeatsSection
        seats={org.seats}
        used={used}
        renewalSeats={org.renewalSeats}
        change={
          org.providerSubscriptionId
            ? {
                organizationId: org.id,
                error: seatsFailed?.fieldErrors.seats ?? null,
                typed: typedIn(seatsFailed, 'seats') ?? '',
              }
            : null
        }
      />
      <MembersSection organizationId={org.id} members={members} />
      <InviteSection
        organizationId={org.id}
        error={inviteFailed?.fieldErrors.email ?? null}
        typed={typedIn(inviteFailed, 'email') ?? ''}
      />
      <InvoicesSection invoices={invoices} quoteHref={quoteHref} />
      <ReportSection organizationId={org.id} months={lastMonths(new Date())} />
    </AccountPage>
  );
}
