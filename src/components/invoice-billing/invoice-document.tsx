import type { ReactNode } from 'react';
import { formatYen, formatNumber } from '@/lib/format';
import { formatDate, servicePeriod } from '@/components/billing/billing-format';
import { IssuerRows } from '@/components/billing/issuer-rows';
import { PrintButton } from '@/components/billing/print-button.client';
import type { ReceiptIssuer } from '@/components/billing/receipt-view';
import { TableHead } from '@/components/ui/table-head';
import type {
  BankAccountView,
  DocumentLineView,
  InvoiceDocumentView,
  QuoteView,
  TaxSummaryView,
} from '@/server/features/invoice-billing/views';
import '@/components/billing/receipt-print.css';
import sheet from '@/components/billing/receipt.module.css';
import styles from './invoice-document.module.css';

/**
 * 請求書払い's printable documents (docs/decisions/059-invoice-billing.md): the invoice of an
 * organisation's seats — a qualified invoice (適格請求書) when the seller has its registration
 * number: seller and number, date, seats × unit price, the total and tax per rate, the
 * addressee (御中), with the due date and the bank account to transfer to; 支払済 once paid —
 * and the quote (御見積書) printed before ordering. Both print as the receipt does (the site's
 * header and footer left out).
 */

const SEAT = '席';

function lineLabel(line: DocumentLineView): string {
  if (line.kind === 'credit') return `${line.product}（席数変更前の未使用期間分）`;
  if (line.kind === 'prorated') return `${line.product}（席数変更後の残り期間分）`;
  return line.product;
}

function quantityText(line: Pick<DocumentLineView, 'quantity' | 'unitAmount'>): string {
  const seats = `${formatNumber(line.quantity)}${SEAT}`;
  return line.unitAmount === null
    ? `${seats}（日割り）`
    : `${seats} × ${formatYen(line.unitAmount)}`;
}

function TaxRows({ taxes, total }: { taxes: TaxSummaryView[]; total: number }) {
  return (
    <tfoot>
      {taxes.map((row) => (
        <tr key={row.rate}>
          <th scope="row" colSpan={2}>
            {row.rate}%対象
          </th>
          <td className={sheet.number}>
            {formatYen(row.taxable + row.tax)}（うち消費税 {formatYen(row.tax)}）
          </td>
        </tr>
      ))}
      <tr>
        <th scope="row" colSpan={2}>
          合計（税込）
        </th>
        <td className={sheet.number}>{formatYen(total)}</td>
      </tr>
    </tfoot>
  );
}

function IssuerDetails({ issuer, children }: { issuer: ReceiptIssuer; children?: ReactNode }) {
  return (
    <dl className={sheet.details}>
      {children}
      <IssuerRows issuer={issuer} registrationNumber={issuer.registrationNumber} />
    </dl>
  );
}

function Addressee({ name }: { name: string }) {
  return (
    <p className={sheet.addressee}>
      <span className={sheet.addresseeName}>{name}</span> 御中
    </p>
  );
}

function BankTransfer({ account }: { account: BankAccountView }) {
  return (
    <section className={styles.transfer} aria-labelledby="transfer-title">
      <h2 id="transfer-title" className={sheet.heading}>
        お振込先
      </h2>
      <dl className={sheet.details}>
        <div>
          <dt>銀行</dt>
          <dd>{`${account.bankName}（${account.bankCode}）`}</dd>
        </div>
        <div>
          <dt>支店</dt>
          <dd>{`${account.branchName}（${account.branchCode}）`}</dd>
        </div>
        <div>
          <dt>口座種別</dt>
          <dd>{account.accountType}</dd>
        </div>
        <div>
          <dt>口座番号</dt>
          <dd>{account.accountNumber}</dd>
        </div>
        <div>
          <dt>口座名義</dt>
          <dd>{account.accountHolderName}</dd>
        </div>
      </dl>
      <p className={sheet.muted}>
        この口座は貴社専用です。振込手数料は貴社にてご負担ください。入金を確認しだい、この請求書は支払済になります。
      </p>
    </section>
  );
}

export function InvoiceDocument({
  invoice,
  issuer,
}: {
  invoice: InvoiceDocumentView;
  issuer: ReceiptIssuer;
}) {
  const paid = invoice.status === 'paid';
  const open = invoice.status === 'open';
  return (
    <div className={`${sheet.page} receipt-printable`}>
      <nav aria-label="請求書の操作" className={sheet.toolbar}>
        <span />
        <PrintButton />
      </nav>
      <article className={sheet.sheet} aria-labelledby="invoice-title">
        <header className={sheet.sheetHeader}>
          <h1 id="invoice-title" className={sheet.title}>
            請求書
            {issuer.registrationNumber ? <span className={sheet.kind}>（適格請求書）</span> : null}
          </h1>
          <dl className={sheet.meta}>
            <div>
              <dt>請求書番号</dt>
              <dd>{invoice.number}</dd>
            </div>
            <div>
              <dt>発行日</dt>
              <dd>{formatDate(invoice.issuedAt)}</dd>
            </div>
            <div>
              <dt>お支払期限</dt>
              <dd>{formatDate(invoice.dueDate)}</dd>
            </div>
          </dl>
        </header>
        {paid ? <p className={styles.paidStamp}>支払済</p> : null}
        <Addressee name={invoice.addressee} />
        <div className={sheet.totalBox}>
          <p className={sheet.totalLabel}>ご請求金額</p>
          <p className={sheet.total}>
            {formatYen(invoice.amountDue)}
            <span className={sheet.taxIncluded}>（税込）</span>
          </p>
        </div>
        {paid ? (
          <p className={sheet.proviso}>{formatDate(invoice.paidAt)}にお支払いを確認しました。</p>
        ) : null}
        {open && invoice.received > 0 ? (
          <p role="status" className={styles.progress}>
            {formatYen(invoice.received)}のご入金を確認しました。残り{' '}
            {formatYen(invoice.amountRemaining - invoice.received)}
            のご入金で、この請求書のお支払いが完了します。
          </p>
        ) : null}
        {invoice.status === 'void' ? (
          <p className={sheet.proviso}>この請求書は取り消されました。</p>
        ) : null}
        <DocumentLines
          caption="ご請求の内訳"
          lines={invoice.lines}
          taxes={invoice.taxes}
          total={invoice.total}
        />
        {open && invoice.bankAccount ? <BankTransfer account={invoice.bankAccount} /> : null}
        <IssuerDetails issuer={issuer}>
          <div>
            <dt>支払方法</dt>
            <dd>銀行振込</dd>
          </div>
        </IssuerDetails>
      </article>
    </div>
  );
}

function DocumentLines({
  caption,
  lines,
  taxes,
  total,
}: {
  caption: string;
  lines: DocumentLineView[];
  taxes: TaxSummaryView[];
  total: number;
}) {
  return (
    <table className={sheet.lines} aria-label={caption}>
      <TableHead
        columns={[
          '品目（ご利用期間）',
          '数量 × 単価（税込）',
          { label: '金額（税込）', className: sheet.number },
        ]}
      />
      <tbody>
        {lines.map((line, index) => (
          <tr key={index}>
            <td data-label="品目">
              {lineLabel(line)}
              <br />
              <span className={sheet.muted}>
                {servicePeriod(line.periodStart, line.periodEnd) ?? ''}
              </span>
            </td>
            <td data-label="数量 × 単価">{quantityText(line)}</td>
            <td data-label="金額（税込）" className={sheet.number}>
              {formatYen(line.amount)}
            </td>
          </tr>
        ))}
      </tbody>
      <TaxRows taxes={taxes} total={total} />
    </table>
  );
}

/** The quote (御見積書): one period of the seats, before anything is ordered. */
export function QuoteDocument({
  quote,
  addressee,
  issuer,
}: {
  quote: QuoteView;
  addressee: string;
  issuer: ReceiptIssuer;
}) {
  const period = quote.interval === 'year' ? '年額' : '月額';
  return (
    <article className={sheet.sheet} aria-labelledby="quote-title">
      <header className={sheet.sheetHeader}>
        <h1 id="quote-title" className={sheet.title}>
          御見積書
        </h1>
        <dl className={sheet.meta}>
          <div>
            <dt>発行日</dt>
            <dd>{formatDate(quote.issuedAt)}</dd>
          </div>
          <div>
            <dt>有効期限</dt>
            <dd>{formatDate(quote.validUntil)}</dd>
          </div>
        </dl>
      </header>
      <Addressee name={addressee} />
      <div className={sheet.totalBox}>
        <p className={sheet.totalLabel}>お見積金額（{period}）</p>
        <p className={sheet.total}>
          {formatYen(quote.total)}
          <span className={sheet.taxIncluded}>（税込）</span>
        </p>
      </div>
      <DocumentLines
        caption="お見積の内訳"
        lines={[
          {
            product: `${quote.product}（${period}・1${SEAT}あたり${formatYen(quote.unitAmount)}）`,
            kind: 'period',
            quantity: quote.seats,
            unitAmount: quote.unitAmount,
            amount: quote.unitAmount * quote.seats,
            periodStart: null,
            periodEnd: null,
          },
        ]}
        taxes={quote.taxes}
        total={quote.total}
      />
      <p className={sheet.muted}>
        お支払いは請求書払い（銀行振込）です。ご契約後、{period}
        の請求書を発行日から30日以内のお支払期限でお送りします。
      </p>
      <IssuerDetails issuer={issuer} />
    </article>
  );
}
