import { describe, expect, it } from 'vitest';
import { PLANS } from '@test-support/plans';
import type { Operator } from '@/server/features/operator/operator';
import { escapeHtml } from '@/lib/text/escape-html';
import { withCatalogue, withOperator } from './commercial-transactions';

/** The CMS text's table of terms and their values (one <tbody>). */
const table = (rows: [string, string][]) =>
  `<table><tbody>${rows.map(([term, value]) => `<tr><th>${term}</th><td>${value}</td></tr>`).join('')}</tbody></table>`;

/** What the CMS text says where the operator's details are left to a request. */
const ON_REQUEST = '請求があった場合には遅滞なく開示します。';

const BODY =
  '<p>表記</p>' +
  table([
    ['販売業者', ON_REQUEST],
    ['販売価格', '月額プラン：980円（税込）<br>年額プラン：9,800円（税込）'],
    ['解約・返品', 'アカウントページの「プランの管理」から、いつでも解約できます。'],
  ]);

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

  it('reads a row’s label as a reader does: markup left out, entities decoded', () => {
    for (const label of [
      '<strong> 販売価格 </strong>',
      '販売&#x4FA1;格',
      '<span title="a>b">販売価格</span>',
    ]) {
      const body = table([[label, '月額プラン：980円（税込）']]);
      expect(withCatalogue(body, PLANS, 0).pricesPlaced, label).toBe(true);
    }
  });

  it('points cancellation at the plans page’s 『プランの管理』', () => {
    const { html } = withCatalogue(BODY, PLANS, 0);
    expect(html).toContain(
      '<a href="/service-plans">料金プランのページ</a>の『プランの管理』から、いつでも解約できます。',
    );
    expect(html).not.toContain('アカウントページ');
    expect(html).not.toContain('無料');
  });

  it('links the plans page where the text names it, instead of saying it twice', () => {
    const cell = '料金プランのページの「プランの管理」から、いつでも解約できます。';
    const { html } = withCatalogue(
      `<table><tr><th>解約・返品</th><td>${cell}</td></tr></table>`,
      PLANS,
      0,
    );
    expect(html).toContain(
      '<td><a href="/service-plans">料金プランのページ</a>の『プランの管理』から、いつでも解約できます。</td>',
    );
  });

  it('escapes plan names and says when the body has no price row', () => {
    const { html, pricesPlaced } = withCatalogue('<p>なし</p>', PLANS, 0);
    expect(pricesPlaced).toBe(false);
    expect(html).toBe('<p>なし</p>');
    const odd = withCatalogue(BODY, [{ ...PLANS[0]!, name: '<b>月額</b>' }], 0).html;
    expect(odd).toContain(escapeHtml('<b>月額</b>'));
    expect(odd).not.toContain('<b>月額');
  });
});

const OPERATOR: Operator = {
  name: '株式会社アクシス & パートナーズ',
  representative: '山田 花子',
  address: '〒106-0032 東京都港区六本木5-17-1',
  phone: '03-1234-5678',
  email: 'support@axis.example.jp',
  demo: false,
};

const OPERATOR_BODY = table([
  ['販売業者', ON_REQUEST],
  ['運営統括責任者', ON_REQUEST],
  ['所在地', ON_REQUEST],
  ['電話番号', ON_REQUEST],
  ['メールアドレス', 'old@example.com'],
  ['販売価格', '月額プラン：1,100円'],
]);

describe('withOperator', () => {
  it('fills the operator’s rows from the settings, whatever the CMS text says', () => {
    const { html, missing } = withOperator(OPERATOR_BODY, OPERATOR);
    expect(missing).toEqual([]);
    expect(html).not.toContain('遅滞なく開示');
    expect(html).not.toContain(OPERATOR.name); // its & is escaped
    expect(html).toContain(`<th>販売業者</th><td>${escapeHtml(OPERATOR.name)}</td>`);
    expect(html).toContain('<th>運営統括責任者</th><td>山田 花子</td>');
    expect(html).toContain('<th>所在地</th><td>〒106-0032 東京都港区六本木5-17-1</td>');
    expect(html).toContain('<th>電話番号</th><td>03-1234-5678</td>');
    expect(html).toContain(
      '<td><a href="mailto:support@axis.example.jp">support@axis.example.jp</a></td>',
    );
    expect(html).toContain('<th>販売価格</th><td>月額プラン：1,100円</td>');
  });

  it('says how to ask for the address and phone when they are disclosed on request', () => {
    const { html } = withOperator(OPERATOR_BODY, { ...OPERATOR, address: null, phone: null });
    expect(html).toContain(
      '<th>所在地</th><td>請求があった場合には、遅滞なく開示いたします。ご請求は <a href="mailto:support@axis.example.jp">',
    );
    expect(html).toContain(`<th>販売業者</th><td>${escapeHtml(OPERATOR.name)}</td>`);
  });

  it('hands back the rows the text lacks, so the seller is never left unnamed', () => {
    const { html, missing } = withOperator(
      '<table><tr><th>事業者名</th><td>未定</td></tr></table>',
      OPERATOR,
    );
    expect(html).toContain(`<td>${escapeHtml(OPERATOR.name)}</td>`);
    expect(missing.map((row) => row.label)).toEqual([
      '運営統括責任者',
      '所在地',
      '電話番号',
      'メールアドレス',
    ]);
    expect(withOperator('<p>表記</p>', OPERATOR).missing[0]).toEqual({
      label: '販売業者',
      html: escapeHtml(OPERATOR.name),
    });
  });
});
