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
import { japanMonthKey } from '@/lib/metered/meter';
import { doneMessage, failure, flashFor, typedIn } from '@/lib/http/form-flash';
import { requireUser } from '@/server/features/identity/session';
import {
  listMembers,
  organizationById,
  organizationsAdministeredBy,
  seatsSuspended,
} from '@/server/features/organizations';
import { organizationInvoiceList, quotePathOf } from '@/server/features/invoice-billing';
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
  const asked = (await searchParams).org;
  const chosen =
    typeof asked === 'string' ? administered.find((o) => o.id === asked) : administered[0];
  if (!chosen) notFound();
  const [org, members, flash] = await Promise.all([
    organizationById(db, chosen.id),
    listMembers(db, chosen.id),
    readFlash(),
  ]);
  if (!org) notFound();
  const [invoices, quoteHref] = await Promise.all([
    organizationInvoiceList(db, org),
    quotePathOf(db, org),
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
            {suspended
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
