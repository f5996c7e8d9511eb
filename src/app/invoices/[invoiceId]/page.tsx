import '@/styles/base';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { InvoiceDocument } from '@/components/invoice-billing/invoice-document';
import { env } from '@/env';
import { invoiceDocument } from '@/server/features/invoice-billing';
import { requireAdmin } from '@/server/features/identity/session';
import { operatorOf } from '@/server/features/operator/operator';
import { getDb } from '@/server/platform/db/client';

// An organisation's invoice, read from the provider each time: never cached.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ invoiceId: string }> };

/** The provider's invoice ids (in_…); anything else is no invoice. */
const INVOICE_ID = /^in_[A-Za-z0-9]{1,200}$/;

/**
 * The printable invoice (適格請求書) of an invoice-billed subscription
 * (docs/decisions/059-invoice-billing.md). Today the publisher's admins open it for any
 * organisation; the organisation's own admins are to be let in with their customer id as
 * invoiceDocument's `customerId` once organisations exist (anyone else: the 404 page).
 */
export const generateMetadata = gatedMetadata(
  () => requireAdmin(),
  async ({ params }: Props) =>
    accountMetadata('請求書', `/invoices/${encodeURIComponent((await params).invoiceId)}`),
);

export default async function InvoicePage({ params }: Props) {
  await requireAdmin();
  const { invoiceId } = await params;
  if (!INVOICE_ID.test(invoiceId)) notFound();
  const invoice = await invoiceDocument(await getDb(), invoiceId, null);
  if (!invoice) notFound();
  const settings = env();
  const operator = operatorOf(settings);
  return (
    <InvoiceDocument
      invoice={invoice}
      issuer={{
        name: settings.INVOICE_ISSUER_NAME ?? operator.name,
        address: operator.address,
        registrationNumber: settings.INVOICE_REGISTRATION_NUMBER ?? null,
      }}
    />
  );
}
