import { Link } from '@/components/layout/site-link';
import { formatYen } from '@/lib/format';
import {
  CONSUMPTION_TAX_RATE,
  formatDate,
  includedTax,
  receiptLineLabel,
  servicePeriod,
} from './billing-format';
import { Button } from '@/components/ui/button';
import { IssuerRows } from './issuer-rows';
import { PrintButton } from './print-button.client';
import './receipt-print.css';
import styles from './receipt.module.css';
import { Options } from '@/components/forms/options';
import { TableHead } from '@/components/ui/table-head';

/**
 * Receipts (領収書) of a reader's paid invoices. With the issuer's registration number
 * (INVOICE_REGISTRATION_NUMBER, T + 13 digits) a receipt carries everything a qualified invoice
 * (適格請求書) needs: issuer and number, date, what was sold, the total per tax rate and the
 * tax, the addressee; without it, it is an ordinary receipt and never says 適格請求書.
 */

/** The longest addressee a receipt prints (a company name with its department fits). */
export const RECEIPT_ADDRESSEE_MAX = 60;

export type ReceiptLineView = {
  description: string;
  amount: number;
  periodStart: string | null;
  periodEnd: string | null;
};

export type ReceiptDetailView = {
  id: string;
  number: string | null;
  /** Yen, tax included. */
  total: number;
  /** Consumption tax included in the total, as the provider computed it (0: not computed). */
  tax: number;
  lines: ReceiptLineView[];
  paidAt: string | null;
  createdAt: string;
};

/**
 * Who issues the receipt: the seller's legal name (the 特定商取引法 page's 販売業者, or
 * INVOICE_ISSUER_NAME when the registered name differs), its address, or null where the page
 * discloses the address on request (the receipt then points there), and the registration number.
 */
export type ReceiptIssuer = {
  name: string;
  address: string | null;
  registrationNumber: string | null;
};

/** 様 for a person, 御中 for a company or a department: the reader picks per receipt. */
export const HONORIFICS = ['様', '御中'] as const;
export type Honorific = (typeof HONORIFICS)[number];
export type ReceiptAddressee = { name: string; honorific: Honorific };

/** The tax inside a receipt's total: the provider's figure, or 10/110 of the total. */
export function receiptTax(receipt: Pick<ReceiptDetailView, 'total' | 'tax'>): number {
  return receipt.tax > 0 ? receipt.tax : includedTax(receipt.total);
}

export function ReceiptList({ receipts }: { receipts: ReceiptDetailView[] }) {
  if (receipts.length === 0) {
    return (
      <div role="status" className={styles.empty}>
        <p>まだ領収書はありません</p>
        <p className={styles.muted}>
          有料プランのお支払いが完了すると、ここに領収書が表示されます。
        </p>
      </div>
    );
  }
  return (
    <table className={styles.list}>
      <caption className="visually-hidden">お支払い済みの請求の一覧</caption>
      <TableHead
        columns={['お支払い日', '請求書番号', '金額（税込）', { label: '領収書', hidden: true }]}
      />
      <tbody>
        {receipts.map((receipt) => {
          const paid = formatDate(receipt.paidAt ?? receipt.createdAt);
          return (
            <tr key={receipt.id}>
              <td data-label="お支払い日">{paid}</td>
              <td data-label="請求書番号">{receipt.number ?? '—'}</td>
              <td data-label="金額（税込）" className={styles.number}>
                {formatYen(receipt.total)}
              </td>
              <td>
                <Link href={`/account/receipts/${encodeURIComponent(receipt.id)}`} prefetch={false}>
                  領収書を表示<span className="visually-hidden">（{paid}のお支払い）</span>
                </Link>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function ReceiptView({
  receipt,
  addressee,
  issuer,
  addresseeError = null,
}: {
  receipt: ReceiptDetailView;
  addressee: ReceiptAddressee;
  issuer: ReceiptIssuer;
  /** Why the addressee asked for was not printed (the reader's name is printed instead). */
  addresseeError?: string | null;
}) {
  const qualified = !!issuer.registrationNumber;
  const tax = receiptTax(receipt);
  const firstLine = receipt.lines.find((line) => line.amount > 0) ?? receipt.lines[0];
  const paidOn = formatDate(receipt.paidAt ?? receipt.createdAt);
  return (
    <div className={`${styles.page} receipt-printable`}>
      <nav aria-label="領収書の操作" className={styles.toolbar}>
        <Link href="/account/receipts">領収書の一覧へ戻る</Link>
        <PrintButton />
      </nav>
      <AddresseeForm addressee={addressee} error={addresseeError} />
      <article className={styles.sheet} aria-labelledby="receipt-title">
        <header className={styles.sheetHeader}>
          <h1 id="receipt-title" className={styles.title}>
            領収書
            {qualified ? <span className={styles.kind}>（適格請求書）</span> : null}
          </h1>
          <dl className={styles.meta}>
            <div>
              <dt>請求書番号</dt>
              <dd>{receipt.number ?? receipt.id}</dd>
            </div>
            <div>
              <dt>支払日</dt>
              <dd>{paidOn}</dd>
            </div>
          </dl>
        </header>

        <p className={styles.addressee}>
          <span className={styles.addresseeName}>{addressee.name}</span> {addressee.honorific}
        </p>

        <div className={styles.totalBox}>
          <p className={styles.totalLabel}>領収金額</p>
          <p className={styles.total}>
            {formatYen(receipt.total)}
            <span className={styles.taxIncluded}>（税込）</span>
          </p>
        </div>
        <p className={styles.proviso}>
          但し、{firstLine ? receiptLineLabel(firstLine.description) : 'ご利用料金'}
          のご利用料金として、上記正に領収いたしました。
        </p>

        <h2 className={styles.heading}>内訳</h2>
        <table className={styles.lines}>
          <TableHead
            columns={['品目', 'ご利用期間', { label: '金額（税込）', className: styles.number }]}
          />
          <tbody>
            {receipt.lines.map((line, index) => (
              <tr key={index}>
                <td data-label="品目">{receiptLineLabel(line.description)}</td>
                <td data-label="ご利用期間">
                  {servicePeriod(line.periodStart, line.periodEnd) ?? '—'}
                </td>
                <td data-label="金額（税込）" className={styles.number}>
                  {formatYen(line.amount)}
                </td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                {CONSUMPTION_TAX_RATE}%対象
              </th>
              <td className={styles.number}>
                {formatYen(receipt.total)}（うち消費税 {formatYen(tax)}）
              </td>
            </tr>
            <tr>
              <th scope="row" colSpan={2}>
                合計（税込）
              </th>
              <td className={styles.number}>{formatYen(receipt.total)}</td>
            </tr>
          </tfoot>
        </table>

        <dl className={styles.details}>
          <div>
            <dt>支払方法</dt>
            <dd>クレジットカード</dd>
          </div>
          <IssuerRows
            issuer={issuer}
            registrationNumber={qualified ? issuer.registrationNumber : null}
          />
        </dl>
      </article>
    </div>
  );
}

/**
 * The addressee (宛名) for this receipt, as a plain GET form: the page prints what it is given
 * (as a shop writes the name asked for on a paper receipt); nothing is stored.
 */
function AddresseeForm({
  addressee,
  error,
}: {
  addressee: ReceiptAddressee;
  error: string | null;
}) {
  return (
    <form method="get" className={styles.addresseeForm} aria-labelledby="addressee-form-title">
      <h2 id="addressee-form-title" className={styles.formTitle}>
        宛名を指定する
      </h2>
      <div className={styles.formRow}>
        <label className={styles.formField}>
          <span>宛名</span>
          <input
            className={styles.formControl}
            name="addressee"
            defaultValue={addressee.name}
            maxLength={RECEIPT_ADDRESSEE_MAX}
            autoComplete="organization"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'addressee-error' : undefined}
          />
        </label>
        <label className={styles.formField}>
          <span>敬称</span>
          <select
            className={styles.formControl}
            name="honorific"
            defaultValue={addressee.honorific}
          >
            <Options items={HONORIFICS} />
          </select>
        </label>
        <Button type="submit" color="white">
          宛名を反映
        </Button>
      </div>
      {error ? (
        <p id="addressee-error" role="alert" className={styles.formError}>
          {error}
        </p>
      ) : null}
    </form>
  );
}
