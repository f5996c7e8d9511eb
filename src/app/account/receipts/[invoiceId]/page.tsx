import '@/styles/base';
import { notFound } from 'next/navigation';
import { accountMetadata } from '@/components/account/metadata';
import { receiptAddressee } from '@/components/billing/receipt-addressee';
import { ReceiptView } from '@/components/billing/receipt-view';
import { toReceiptView } from '@/components/billing/views';
import { env } from '@/env';
import { findReceipt } from '@/server/features/billing/reader-billing';
import { getDb } from '@/server/platform/db/client';
import { requireUser } from '@/server/features/identity/session';
import { operatorOf } from '@/server/features/operator/operator';
import { getProfileDetails } from '@/server/features/profiles/profiles';

// One reader's receipt: never cached.
export const dynamic = 'force-dynamic';

type Props = {
  params: Promise<{ invoiceId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The provider's invoice ids (in_…); anything else is no receipt. */
const INVOICE_ID = /^[A-Za-z0-9_]{1,200}$/;

export async function generateMetadata({ params }: Props) {
  const { invoiceId } = await params;
  return accountMetadata('領収書', `/account/receipts/${encodeURIComponent(invoiceId)}`);
}

export default async function ReceiptPage({ params, searchParams }: Props) {
  const { invoiceId } = await params;
  const user = await requireUser(`/account/receipts/${encodeURIComponent(invoiceId)}`);
  if (!INVOICE_ID.test(invoiceId)) notFound();
  const db = await getDb();
  // Only the reader's own paid invoices: anyone else's is not found (nothing to discover).
  const [receipt, profile] = await Promise.all([
    findReceipt(db, user.id, invoiceId),
    getProfileDetails(db, user.id),
  ]);
  if (!receipt || receipt.total <= 0) notFound();
  const settings = env();
  // The seller as the 特定商取引法 page names it: a receipt for expenses needs the legal name.
  const operator = operatorOf(settings);
  const { addressee, error } = receiptAddressee(
    await searchParams,
    user.name || profile?.displayName || user.email,
  );
  return (
    <ReceiptView
      receipt={toReceiptView(receipt)}
      addressee={addressee}
      addresseeError={error}
      issuer={{
        name: settings.INVOICE_ISSUER_NAME ?? operator.name,
        address: operator.address,
        registrationNumber: settings.INVOICE_REGISTRATION_NUMBER ?? null,
      }}
    />
  );
}
