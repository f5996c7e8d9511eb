import { describe, expect, it } from 'vitest';
import type { PlanView } from './billing-format';
import { withCatalogue } from './commercial-transactions';

const PLANS: PlanView[] = [
  {
    key: 'monthly',
    name: 'メンバーシップ 月額プラン',
    amount: 1100,
    interval: 'month',
    intervalCount: 1,
    active: true,
  },
  {
    key: 'yearly',
    name: 'メンバーシップ 年額プラン',
    amount: 11000,
    interval: 'year',
    intervalCount: 1,
    active: true,
  },
];

const BODY =
  '<p>表記</p><table><tbody>' +
  '<tr><th>販売業者</th><td>請求があった場合には遅滞なく開示します。</td></tr>' +
  '<tr><th>販売価格</th><td>月額プラン：980円（税込）<br>年額プラン：9,800円（税込）</td></tr>' +
  '<tr><th>解約・返品</th><td>アカウントページの「プランの管理」から、いつでも解約できます。</td></tr>' +
  '</tbody></table>';

describe('withCatalogue', () => {
  it('puts the catalogue’s prices in the 販売価格 row and keeps the rest', () => {
    const { html, pricesPlaced } = withCatalogue(BODY, PLANS, 14);
    expect(pricesPlaced).toBe(true);
    expect(html).toContain('メンバーシップ 月額プラン：¥1,100（税込）／月');
    expect(html).toContain('メンバーシップ 年額プラン：¥11,000（税込）／年');
    expect(html).toContain('最初の14日間が無料');
    expect(html).not.toContain('980円');
    expect(html).toContain('<th>販売業者</th><td>請求があった場合には遅滞なく開示します。</td>');
  });

  it('points cancellation at the plans page’s 『プランの管理』', () => {
    const { html } = withCatalogue(BODY, PLANS, 0);
    expect(html).toContain(
      '<a href="/service-plans">料金プランのページ</a>の『プランの管理』から、いつでも解約できます。',
    );
    expect(html).not.toContain('アカウントページ');
    expect(html).not.toContain('無料');
  });

  it('escapes plan names and says when the body has no price row', () => {
    const { html, pricesPlaced } = withCatalogue('<p>なし</p>', PLANS, 0);
    expect(pricesPlaced).toBe(false);
    expect(html).toBe('<p>なし</p>');
    const odd = withCatalogue(BODY, [{ ...PLANS[0]!, name: '<b>月額</b>' }], 0).html;
    expect(odd).toContain('&#60;b&#62;月額&#60;/b&#62;');
  });
});
