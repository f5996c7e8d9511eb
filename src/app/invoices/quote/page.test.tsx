// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The quote page: public, made from its query; a price that cannot be ordered is the 404 page.

const state = vi.hoisted(() => ({ asked: [] as [string, number][] }));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string }) => ({ title: input.title }),
}));
vi.mock('@/server/features/invoice-billing', () => ({
  quoteDocument: (_db: unknown, price: string, seats: number) => {
    state.asked.push([price, seats]);
    if (price !== 'price_seat') return Promise.resolve(null);
    return Promise.resolve({
      product: '法人プラン',
      interval: 'month',
      seats,
      unitAmount: 11000,
      total: 11000 * seats,
      taxes: [{ rate: 10, taxable: 10000 * seats, tax: 1000 * seats }],
      issuedAt: '2027-04-01T00:00:00.000Z',
      validUntil: '2027-05-01T00:00:00.000Z',
    });
  },
}));

const { default: QuotePage } = await import('./page');
const notFound = { digest: 'NEXT_HTTP_ERROR_FALLBACK;404' };
const open = async (query: Record<string, string>) =>
  render(await QuotePage({ searchParams: Promise.resolve(query) }));

beforeEach(() => {
  state.asked = [];
});

describe('/invoices/quote', () => {
  it('is the 404 page without a price, or for one that cannot be ordered', async () => {
    await expect(QuotePage({ searchParams: Promise.resolve({}) })).rejects.toMatchObject(notFound);
    await expect(
      QuotePage({
        searchParams: Promise.resolve({ price: 'price_gone', seats: '2', addressee: 'A社' }),
      }),
    ).rejects.toMatchObject(notFound);
  });

  it('asks for seats and 宛名, then prints the quote', async () => {
    await open({ price: 'price_seat' });
    expect(screen.getByRole('textbox', { name: '宛名（貴社名）' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
    expect(state.asked).toEqual([]);
    document.body.innerHTML = '';
    await open({ price: 'price_seat', seats: '4', addressee: '株式会社サンプル' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('御見積書');
    expect(screen.getByRole('row', { name: /法人プラン/ }).textContent).toContain('¥44,000');
    expect(state.asked).toEqual([['price_seat', 4]]);
  });

  it('says what is wrong with the seats, quoting nothing', async () => {
    await open({ price: 'price_seat', seats: '0', addressee: '株式会社サンプル' });
    expect(screen.getByRole('alert').textContent).toBe('席数は 1 以上で入力してください。');
    expect(state.asked).toEqual([]);
  });
});
