// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InvoiceDocumentView, QuoteView } from '@/server/features/invoice-billing/views';
import { InvoiceDocument, QuoteDocument } from './invoice-document';

const ISSUER = {
  name: 'サンプル出版株式会社',
  address: '〒106-0032 東京都港区六本木0-0-0',
  registrationNumber: 'T1234567890123',
};

const INVOICE: InvoiceDocumentView = {
  id: 'in_abc',
  number: 'AB12CD-0001',
  status: 'open',
  addressee: '株式会社サンプル',
  issuedAt: '2027-04-01T00:00:00.000Z',
  dueDate: '2027-05-01T00:00:00.000Z',
  paidAt: null,
  lines: [
    {
      product: '法人プラン',
      kind: 'period',
      quantity: 3,
      unitAmount: 11000,
      amount: 33000,
      periodStart: '2027-04-01T00:00:00.000Z',
      periodEnd: '2027-05-01T00:00:00.000Z',
    },
  ],
  taxes: [{ rate: 10, taxable: 30000, tax: 3000 }],
  total: 33000,
  amountDue: 33000,
  amountRemaining: 33000,
  received: 0,
  bankAccount: {
    bankName: 'サンドボックス銀行',
    bankCode: '0999',
    branchName: '法人第123支店',
    branchCode: '123',
    accountType: '普通',
    accountNumber: '1234567',
    accountHolderName: 'ｻﾝﾄﾞﾎﾞﾂｸｽ',
  },
};

const invoice = (changes: Partial<InvoiceDocumentView> = {}) =>
  render(<InvoiceDocument invoice={{ ...INVOICE, ...changes }} issuer={ISSUER} />);

describe('InvoiceDocument (適格請求書)', () => {
  it('prints the addressee with 御中, the seller and its registration number, and the due date', () => {
    invoice();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('請求書（適格請求書）');
    expect(screen.getByText('株式会社サンプル').parentElement?.textContent).toContain('御中');
    expect(screen.getByText('T1234567890123')).toBeTruthy();
    expect(screen.getByText('サンプル出版株式会社')).toBeTruthy();
    expect(screen.getByText('2027年5月1日')).toBeTruthy();
    expect(screen.queryByText('支払済')).toBeNull();
  });

  it('lists seats × unit price and the total and tax of each rate', () => {
    invoice();
    const table = screen.getByRole('table', { name: 'ご請求の内訳' });
    const row = within(table).getByRole('row', { name: /法人プラン/ });
    expect(row.textContent).toContain('3席');
    expect(row.textContent).toContain('¥11,000');
    expect(row.textContent).toContain('¥33,000');
    expect(table.textContent).toContain('10%対象');
    expect(table.textContent).toContain('消費税 ¥3,000');
    expect(screen.getByText('ご請求金額').nextElementSibling?.textContent).toContain('¥33,000');
  });

  it('gives the transfer details of the virtual account', () => {
    invoice();
    const transfer = screen.getByRole('region', { name: 'お振込先' });
    for (const text of [
      'サンドボックス銀行（0999）',
      '法人第123支店（123）',
      '普通',
      '1234567',
      'ｻﾝﾄﾞﾎﾞﾂｸｽ',
    ]) {
      expect(within(transfer).getByText(text)).toBeTruthy();
    }
  });

  it('shows what was received and what remains after a partial transfer', () => {
    invoice({ received: 20000 });
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('¥20,000');
    expect(status.textContent).toContain('残り ¥13,000');
  });

  it('is marked 支払済 with the date once paid, without the remaining amount', () => {
    invoice({ status: 'paid', paidAt: '2027-04-20T03:00:00.000Z', amountRemaining: 0 });
    expect(screen.getByText('支払済')).toBeTruthy();
    expect(screen.getByText('2027年4月20日にお支払いを確認しました。')).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says 請求書 alone without a registration number', () => {
    render(<InvoiceDocument invoice={INVOICE} issuer={{ ...ISSUER, registrationNumber: null }} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('請求書');
    expect(screen.queryByText('登録番号')).toBeNull();
  });
});

describe('QuoteDocument (見積書)', () => {
  const QUOTE: QuoteView = {
    product: '法人プラン',
    interval: 'month',
    seats: 5,
    unitAmount: 11000,
    total: 55000,
    taxes: [{ rate: 10, taxable: 50000, tax: 5000 }],
    issuedAt: '2027-04-01T00:00:00.000Z',
    validUntil: '2027-05-01T00:00:00.000Z',
  };

  it('quotes seats × the unit price per period, with the tax and how long it is valid', () => {
    render(<QuoteDocument quote={QUOTE} addressee="株式会社サンプル" issuer={ISSUER} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('御見積書');
    const row = screen.getByRole('row', { name: /法人プラン/ });
    expect(row.textContent).toContain('5席');
    expect(row.textContent).toContain('¥55,000');
    expect(screen.getByText('有効期限').nextElementSibling?.textContent).toBe('2027年5月1日');
    expect(screen.getByText('株式会社サンプル').parentElement?.textContent).toContain('御中');
    expect(document.body.textContent).toContain('月額');
  });
});
