import '@/styles/base';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { InvoiceDocument } from '@/components/invoice-billing/invoice-document';
import { env } from '@/env';
import { invoiceForViewer } from '@/server/features/invoice-billing';
import { requireUser } from '@/server/features/identity/session';
import { operatorOf } from '@/server/features/operator/operator';
import { getDb } from '@/server/platform/db/client';

// An organisation's invoice, read from the provider each time: never cached.
export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ invoiceId: string }> };

/** The provider's invoice ids (in_…); anything else is no invoice. */
const INVOICE_ID = /^in_[A-Za-z0-9]{1,200}$/;

const pathOf = (invoiceId: string) => `/invoices/${encodeURIComponent(invoiceId)}`;

/**
 * The printable invoice (適格請求書) of an invoice-billed subscription
 * (docs/decisions/059-invoice-billing.md): the publisher's admins open any; an organisation's
 * admins only their organisation's (invoiceForViewer); a visitor is asked to sign in (the link
 * comes in the invoice's mail), anyone else gets the 404 page, as for an id no invoice has.
 */
export const generateMetadata = gatedMetadata(
  async ({ params }: Props) => requireUser(pathOf((await params).invoiceId)),
  async ({ params }: Props) => accountMetadata('請求書', pathOf((await params).invoiceId)),
);

export default async function InvoicePage({ params }: Props) {
  const { invoiceId } = await params;
  const user = await requireUser(pathOf(invoiceId));
  if (!INVOICE_ID.test(invoiceId)) notFound();
  const invoice = await invoiceForViewer(await getDb(), user, invoiceId);
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
