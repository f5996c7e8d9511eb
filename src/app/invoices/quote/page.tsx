import '@/styles/base';
import { notFound } from 'next/navigation';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { PrintButton } from '@/components/billing/print-button.client';
import sheet from '@/components/billing/receipt.module.css';
import { QuoteDocument } from '@/components/invoice-billing/invoice-document';
import { QuoteForm } from '@/components/invoice-billing/quote-form';
import { quoteQuery } from '@/components/invoice-billing/quote-query';
import { env } from '@/env';
import { quoteDocument } from '@/server/features/invoice-billing';
import { operatorOf } from '@/server/features/operator/operator';
import { getDb } from '@/server/platform/db/client';

// The quote is made from the query and the price as it is now.
export const dynamic = 'force-dynamic';

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export const metadata = sitePageMetadata({
  title: '法人プランのお見積もり',
  path: '/invoices/quote',
  noIndex: true,
});

/**
 * 御見積書 for the organisation plan, before ordering (docs/decisions/059-invoice-billing.md):
 * `?price=price_…` (the plan's price, linked from the organisation page), then the seats and
 * 宛名 the visitor types. Public: a price and a sum, nothing of anyone's.
 */
export default async function QuotePage({ searchParams }: Props) {
  const query = quoteQuery(await searchParams);
  if (query.kind === 'no-price') notFound();
  const settings = env();
  const operator = operatorOf(settings);
  const issuer = {
    name: settings.INVOICE_ISSUER_NAME ?? operator.name,
    address: operator.address,
    registrationNumber: settings.INVOICE_REGISTRATION_NUMBER ?? null,
  };
  const quote =
    query.kind === 'quote'
      ? await quoteDocument(await getDb(), query.priceId, query.seats, new Date())
      : null;
  if (query.kind === 'quote' && !quote) notFound();
  return (
    <div className={`${sheet.page} receipt-printable`}>
      <nav aria-label="見積書の操作" className={sheet.toolbar}>
        <span />
        {quote ? <PrintButton /> : null}
      </nav>
      <QuoteForm
        priceId={query.priceId}
        seats={query.kind === 'quote' ? String(query.seats) : query.seats}
        addressee={query.addressee}
        error={query.kind === 'form' ? query.error : null}
      />
      {quote && query.kind === 'quote' ? (
        <QuoteDocument quote={quote} addressee={query.addressee} issuer={issuer} />
      ) : null}
    </div>
  );
}
