// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { receiptAddressee } from './receipt-addressee';
import {
  type ReceiptAddressee,
  type ReceiptDetailView,
  type ReceiptIssuer,
  ReceiptList,
  ReceiptView,
  receiptTax,
} from './receipt-view';

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
const READER = { name: '山田 花子', honorific: '様' } as const;

function renderReceipt(
  issuer: ReceiptIssuer = {
    name: 'サンプル出版株式会社',
    address: '〒106-0032 東京都港区六本木0-0-0',
    registrationNumber: null,
  },
  receipt = RECEIPT,
  addressee: ReceiptAddressee = READER,
) {
  render(<ReceiptView receipt={receipt} addressee={addressee} issuer={issuer} />);
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
    expect(screen.getByText('発行者').nextSibling).toHaveTextContent('サンプル出版株式会社');
    expect(screen.getByText('所在地').nextSibling).toHaveTextContent(
      '〒106-0032 東京都港区六本木0-0-0',
    );
  });

  it('points to the 特定商取引法 page for an address disclosed on request', () => {
    renderReceipt({ name: 'サンプル出版株式会社', address: null, registrationNumber: null });
    const address = screen.getByText('所在地').nextSibling as HTMLElement;
    expect(address).toHaveTextContent('ご請求に応じて開示します');
    expect(within(address).getByRole('link')).toHaveAttribute(
      'href',
      '/specified-commercial-transactions',
    );
  });

  it('prints the addressee the reader asks for, with 御中 for a company, and offers a form for it', () => {
    renderReceipt(undefined, RECEIPT, { name: '株式会社デザイン 経理部', honorific: '御中' });
    expect(screen.getByText('株式会社デザイン 経理部').closest('p')).toHaveTextContent(
      '株式会社デザイン 経理部 御中',
    );
    const form = screen.getByRole('form', { name: '宛名を指定する' });
    expect(form).toHaveAttribute('method', 'get');
    expect(within(form).getByRole('textbox', { name: '宛名' })).toHaveValue(
      '株式会社デザイン 経理部',
    );
    expect(within(form).getByRole('combobox', { name: '敬称' })).toHaveValue('御中');
    expect(within(form).getByRole('button', { name: '宛名を反映' })).toBeInTheDocument();
  });

  it('says why an addressee was not printed, next to the field', () => {
    render(
      <ReceiptView
        receipt={RECEIPT}
        addressee={READER}
        issuer={{ name: 'サンプル出版株式会社', address: null, registrationNumber: null }}
        addresseeError="宛名は60文字以内で入力してください。"
      />,
    );
    const field = screen.getByRole('textbox', { name: '宛名' });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('宛名は60文字以内で入力してください。');
    expect(screen.getByRole('alert')).toHaveTextContent('宛名は60文字以内で入力してください。');
  });

  it('is a qualified invoice (適格請求書) with the registration number only when one is set', () => {
    const { unmount } = render(
      <ReceiptView
        receipt={RECEIPT}
        addressee={READER}
        issuer={{ name: '株式会社アクシス', address: null, registrationNumber: null }}
      />,
    );
    expect(screen.queryByText('登録番号')).toBeNull();
    expect(screen.queryByText(/適格請求書/)).toBeNull();
    unmount();

    renderReceipt({
      name: '株式会社アクシス',
      address: '東京都港区六本木0-0-0',
      registrationNumber: 'T1234567890123',
    });
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

describe('receiptAddressee', () => {
  it('is the reader with 様 when the query asks for nothing', () => {
    expect(receiptAddressee({}, '山田 花子')).toEqual({ addressee: READER, error: null });
  });

  it('takes a trimmed name and 様 or 御中', () => {
    expect(
      receiptAddressee({ addressee: '  株式会社デザイン ', honorific: '御中' }, '山田 花子'),
    ).toEqual({
      addressee: { name: '株式会社デザイン', honorific: '御中' },
      error: null,
    });
    expect(receiptAddressee({ addressee: '鈴木 一郎' }, '山田 花子').addressee).toEqual({
      name: '鈴木 一郎',
      honorific: '様',
    });
  });

  it.each([
    [{ addressee: '' }, '宛名を入力してください。'],
    [{ addressee: 'あ'.repeat(61) }, '宛名は60文字以内で入力してください。'],
    [{ addressee: '株式会社\nデザイン' }, '宛名に使えない文字が含まれています。'],
    [{ addressee: '株式会社\u202eデザイン' }, null],
    [{ addressee: '株式会社', honorific: '殿' }, '敬称は「様」か「御中」から選んでください。'],
    [{ addressee: ['一', '二'] }, null],
  ])('prints the reader instead of %j, saying why', (query, message) => {
    const { addressee, error } = receiptAddressee(query, '山田 花子');
    expect(addressee).toEqual(READER);
    if (message) expect(error).toBe(message);
    else expect(error).toEqual(expect.any(String));
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
