// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ReceiptDetailView, ReceiptList, ReceiptView, receiptTax } from './receipt-view';

const RECEIPT: ReceiptDetailView = {
  id: 'in_abc123',
  number: 'AB12CD-0001',
  total: 1100,
  tax: 0,
  lines: [
    {
      description: '1 × メンバーシップ 月額プラン (at ¥1,100 / month)',
      amount: 1100,
      periodStart: '2026-06-14T03:00:00.000Z',
      periodEnd: '2026-07-14T03:00:00.000Z',
    },
  ],
  paidAt: '2026-06-14T03:05:00.000Z',
  createdAt: '2026-06-14T03:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

/** The receipt of RECEIPT for 山田 花子, issued by `issuer`. */
function renderReceipt(
  issuer: { name: string; registrationNumber: string | null } = {
    name: 'AXIS Membership',
    registrationNumber: null,
  },
  receipt = RECEIPT,
) {
  render(<ReceiptView receipt={receipt} addressee="山田 花子" issuer={issuer} />);
}

describe('ReceiptView', () => {
  it('shows the addressee, the amount with tax at 10 %, the lines in Japanese, the date and number', () => {
    renderReceipt();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^領収書$/);
    expect(screen.getByText('山田 花子').closest('p')).toHaveTextContent('山田 花子 様');
    expect(screen.getByText('領収金額').parentElement).toHaveTextContent('¥1,100（税込）');
    const lines = screen.getByRole('table');
    expect(within(lines).getByText('メンバーシップ 月額プラン')).toBeInTheDocument();
    expect(within(lines).getByText('2026年6月14日〜2026年7月14日')).toBeInTheDocument();
    expect(within(lines).queryByText(/\(at /)).toBeNull();
    const taxRow = within(lines).getByRole('rowheader', { name: '10%対象' }).closest('tr')!;
    expect(taxRow).toHaveTextContent('¥1,100（うち消費税 ¥100）');
    expect(screen.getByText('支払日').nextSibling).toHaveTextContent('2026年6月14日');
    expect(screen.getByText('請求書番号').nextSibling).toHaveTextContent('AB12CD-0001');
    expect(screen.getByText('発行者').nextSibling).toHaveTextContent('AXIS Membership');
  });

  it('is a qualified invoice (適格請求書) with the registration number only when one is set', () => {
    const { unmount } = render(
      <ReceiptView
        receipt={RECEIPT}
        addressee="山田 花子"
        issuer={{ name: '株式会社アクシス', registrationNumber: null }}
      />,
    );
    expect(screen.queryByText('登録番号')).toBeNull();
    expect(screen.queryByText(/適格請求書/)).toBeNull();
    unmount();

    renderReceipt({ name: '株式会社アクシス', registrationNumber: 'T1234567890123' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('領収書（適格請求書）');
    expect(screen.getByText('登録番号').nextSibling).toHaveTextContent('T1234567890123');
    expect(screen.getByText('発行者').nextSibling).toHaveTextContent('株式会社アクシス');
  });

  it('uses the provider’s tax when it computed one, else 10/110 of the total rounded down', () => {
    expect(receiptTax({ total: 11000, tax: 0 })).toBe(1000);
    expect(receiptTax({ total: 980, tax: 0 })).toBe(89);
    expect(receiptTax({ total: 1100, tax: 100 })).toBe(100);
    renderReceipt(undefined, {
      ...RECEIPT,
      total: 11000,
      tax: 1000,
      lines: [{ ...RECEIPT.lines[0]!, amount: 11000 }],
    });
    expect(screen.getByRole('rowheader', { name: '10%対象' }).closest('tr')).toHaveTextContent(
      '¥11,000（うち消費税 ¥1,000）',
    );
  });

  it('prints with the 印刷する button', async () => {
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderReceipt();
    await userEvent.click(screen.getByRole('button', { name: '印刷する' }));
    expect(print).toHaveBeenCalledTimes(1);
  });
});

describe('ReceiptList', () => {
  it('lists each paid invoice with its date, number, amount and a link to its receipt', () => {
    render(<ReceiptList receipts={[RECEIPT]} />);
    const row = screen.getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('2026年6月14日');
    expect(row).toHaveTextContent('AB12CD-0001');
    expect(row).toHaveTextContent('¥1,100');
    expect(within(row).getByRole('link', { name: /領収書を表示/ })).toHaveAttribute(
      'href',
      '/account/receipts/in_abc123',
    );
  });

  it('says so when there is none yet', () => {
    render(<ReceiptList receipts={[]} />);
    expect(screen.getByText('まだ領収書はありません')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
