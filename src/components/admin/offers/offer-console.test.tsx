// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CreateOfferForm, OfferList } from './offer-console';

const NOW = new Date('2026-11-27T00:00:00Z');
const OFFER = {
  id: 'promo_1',
  code: 'WELCOME',
  name: '初月半額',
  active: true,
  kind: 'percent' as const,
  value: 50,
  duration: 'once' as const,
  months: null,
  redeemed: 3,
  overCap: 0,
  cap: 100,
  expiresAt: new Date('2026-12-31T14:59:59Z'),
  firstTime: true,
  plans: ['monthly'],
};

describe('the offers console', () => {
  it('lists each offer with its terms, the link to copy and a deactivate form', () => {
    render(
      <OfferList
        offers={[OFFER, { ...OFFER, id: 'promo_2', code: 'OLD', active: false }]}
        planNames={new Map([['monthly', 'メンバーシップ 月額プラン']])}
        siteUrl="https://example.jp"
        now={NOW}
      />,
    );
    const [first, second] = screen.getAllByRole('listitem');
    expect(within(first!).getByRole('heading').textContent).toBe('初月半額（有効）');
    expect(first!.textContent).toContain('50%オフ（初回のみ）');
    expect(first!.textContent).toContain('3回 ／ 上限 100回');
    expect(first!.textContent).toContain('メンバーシップ 月額プラン／初めての読者のみ');
    expect(within(first!).getByLabelText('リンク（コピーして使えます）')).toHaveProperty(
      'value',
      'https://example.jp/service-plans?offer=WELCOME',
    );
    const button = within(first!).getByRole('button', { name: 'コード WELCOME を無効にする' });
    expect(button.closest('form')?.getAttribute('action')).toBe(
      '/api/admin/offers/promo_1/deactivate',
    );
    expect(within(second!).getByRole('heading').textContent).toBe('初月半額（無効）');
    expect(within(second!).queryByRole('button')).toBeNull();
  });

  it('says when a code ended at its cap, and the checkouts honoured past it', () => {
    render(
      <OfferList
        offers={[{ ...OFFER, active: false, redeemed: 100, overCap: 1 }]}
        planNames={new Map()}
        siteUrl="https://example.jp"
        now={NOW}
      />,
    );
    const item = screen.getByRole('listitem');
    expect(within(item).getByRole('heading').textContent).toBe('初月半額（上限に達しました）');
    expect(item.textContent).toContain(
      '100回 ／ 上限 100回（ほかに上限の後に完了した申し込み 1回：割引のまま適用）',
    );
  });

  it('posts the create form to the server, with the plans to choose', () => {
    render(
      <CreateOfferForm
        plans={[
          { key: 'monthly', name: 'メンバーシップ 月額プラン' },
          { key: 'yearly', name: 'メンバーシップ 年額プラン' },
        ]}
        flash={null}
      />,
    );
    const form = screen.getByRole('button', { name: 'オファーを作成する' }).closest('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/api/admin/offers');
    for (const label of ['オファー名', '割引の種類', '割引の値', 'コード', '有効期限'])
      expect(within(form).getByLabelText(label)).toBeTruthy();
    expect(within(form).getByLabelText('メンバーシップ 年額プラン')).toHaveProperty(
      'checked',
      true,
    );
  });
});
