import { describe, expect, it } from 'vitest';
import { businessCsv, csvFileName } from './business-csv';
import type { BusinessReport } from './business-report';

const report: BusinessReport = {
  from: '2026-05-01',
  to: '2027-04-28',
  headline: {
    mrr: 0,
    payingMembers: 0,
    trials: 0,
    conversion: { signUps: 0, converted: 0, rate: null },
    oneTime: { posts: 0, tips: 0, gifts: 0 },
  },
  organizations: { organizations: 0, seats: 0, used: 0, mrr: 0 },
  months: [
    {
      month: '2027-04',
      newPaying: 2,
      churned: 1,
      payingAtEnd: 3,
      signUps: 4,
      converted: 1,
      oneTime: { posts: 600, tips: 1100, gifts: 3300 },
    },
  ],
  posts: [
    {
      endpoint: 'posts',
      contentId: 'p1',
      title: '=HYPERLINK("https://evil.example","見る")',
      href: '/posts/p1',
      views: 10,
      memberViews: 4,
      paywallViews: 3,
      signUps: 2,
      subscriptions: 1,
      purchases: 2,
      tips: 1,
      oneTimeRevenue: 700,
      meteredReads: 5,
      meteredSubscriptions: 1,
    },
    {
      endpoint: 'posts',
      contentId: 'p2',
      title: null,
      href: '/posts/p2',
      views: 1,
      memberViews: 0,
      paywallViews: 0,
      signUps: 0,
      subscriptions: 0,
      purchases: 0,
      tips: 0,
      oneTimeRevenue: 0,
      meteredReads: 0,
      meteredSubscriptions: 0,
    },
  ],
};

describe('businessCsv', () => {
  it('writes the per-item table with a title starting with = escaped, never a formula', () => {
    expect(businessCsv(report, 'posts', { money: true })).toBe(
      [
        '種類,ID,タイトル,URL,閲覧数,会員の閲覧数,ペイウォール表示,登録,有料申し込み,記事購入,チップ,無料枠での閲覧,無料枠の後の有料申し込み,記事購入とチップの売上（円）',
        `posts,p1,"'=HYPERLINK(""https://evil.example"",""見る"")",/posts/p1,10,4,3,2,1,2,1,5,1,700`,
        'posts,p2,,/posts/p2,1,0,0,0,0,0,0,0,0,0',
        '',
      ].join('\r\n'),
    );
    // Without money (an editor's download), the same table less its yen.
    expect(businessCsv(report, 'posts', { money: false }).split('\r\n')[1]).toBe(
      `posts,p1,"'=HYPERLINK(""https://evil.example"",""見る"")",/posts/p1,10,4,3,2,1,2,1,5,1`,
    );
  });

  it('writes the monthly table', () => {
    expect(businessCsv(report, 'months', { money: true })).toBe(
      '月,新規有料,解約,月末の有料メンバー,新規登録,うち有料化,記事の売上（円）,チップ（円）,ギフト（円）\r\n2027-04,2,1,3,4,1,600,1100,3300\r\n',
    );
    expect(csvFileName(report, 'months')).toBe('business-months-2027-04-28.csv');
  });
});
