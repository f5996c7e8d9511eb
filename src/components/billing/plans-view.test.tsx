// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { PlanChangeNoticeProvider } from '@/components/ui/plan-change-notice.client';
import { SnackbarProvider } from '@/components/ui/snackbar-context.client';
import type { CurrentPlanView } from './billing-format';
import { PLANS } from '@test-support/plans';
import { type PlansViewer, PlansView } from './plans-view';
import type { OfferView } from '@/lib/billing/offer-terms';

const ACTIVE: CurrentPlanView = {
  provider: 'stripe',
  planName: 'メンバーシップ 月額プラン',
  planKey: 'monthly',
  status: 'active',
  cancelAtPeriodEnd: false,
  currentPeriodEnd: '2026-07-01T03:00:00.000Z',
  trialEnd: null,
};

const wrap = (node: ReactNode) =>
  render(
    <SnackbarProvider>
      <PlanChangeNoticeProvider>{node}</PlanChangeNoticeProvider>
    </SnackbarProvider>,
  );

const member = (
  overrides: Partial<Extract<PlansViewer, { kind: 'member' }>> = {},
): PlansViewer => ({
  kind: 'member',
  trialDays: 0,
  customerId: null,
  current: null,
  ...overrides,
});

const card = (name: string) => screen.getByRole('article', { name });

describe('PlansView', () => {
  it('shows every plan with its tax-inclusive price, the yearly equivalent and saving, and free membership', () => {
    wrap(<PlansView plans={PLANS} viewer={{ kind: 'anonymous', trialDays: 0 }} />);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const monthly = card('メンバーシップ 月額プラン');
    expect(within(monthly).getByText('¥1,100（税込）／月')).toBeInTheDocument();
    const yearly = card('メンバーシップ 年額プラン');
    expect(within(yearly).getByText('¥11,000（税込）／年')).toBeInTheDocument();
    expect(within(yearly).getByText(/月あたり約 ¥917/)).toHaveTextContent(/¥2,200 お得/);
    expect(within(monthly).getByText(/音声コンテンツを聴けます/)).toBeInTheDocument();
    const free = screen.getByRole('region', { name: '無料会員' });
    expect(within(free).getByText(/新しいもの3本を全文で読めます/)).toBeInTheDocument();
    expect(within(free).getByText(/ブックマーク/)).toBeInTheDocument();
    expect(within(free).getByText(/コネクト/)).toBeInTheDocument();
    expect(within(free).queryByText(/ニュースレター/)).toBeNull();
    expect(screen.getByRole('link', { name: '特定商取引法に基づく表記' })).toHaveAttribute(
      'href',
      '/specified-commercial-transactions',
    );
  });

  it('says what a paid plan opens in the access words: 有料会員限定, not 会員限定', () => {
    wrap(<PlansView plans={PLANS} viewer={{ kind: 'anonymous', trialDays: 0 }} />);
    const lead = screen.getByRole('heading', { level: 1 }).nextElementSibling!;
    expect(lead).toHaveTextContent('有料会員限定');
    expect(lead.textContent).not.toMatch(/(?<!有料)会員限定/);
  });

  it('sends an anonymous visitor to the confirmation screen (where the account is made), with the trial', () => {
    wrap(<PlansView plans={PLANS} viewer={{ kind: 'anonymous', trialDays: 14 }} />);
    const monthly = card('メンバーシップ 月額プラン');
    expect(within(monthly).getByText('初めての方は 14 日間無料')).toBeInTheDocument();
    expect(within(monthly).getByText('無料期間の後は')).toBeInTheDocument();
    expect(within(monthly).getByRole('link', { name: /^申し込む/ })).toHaveAttribute(
      'href',
      '/service-plans/confirm?plan=monthly',
    );
    expect(
      within(card('メンバーシップ 年額プラン')).getByRole('link', { name: /^申し込む/ }),
    ).toHaveAttribute('href', '/service-plans/confirm?plan=yearly');
    expect(screen.queryByRole('link', { name: /ログインして申し込む/ })).toBeNull();
    expect(screen.getByRole('link', { name: /無料で会員登録/ })).toHaveAttribute(
      'href',
      '/sign-up',
    );
    expect(screen.queryByRole('region', { name: 'ご利用中のプラン' })).toBeNull();
  });

  it('carries the page of origin into every plan button and the free sign-up', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={{ kind: 'anonymous', trialDays: 14 }}
        next="/posts/abc?x=1"
      />,
    );
    expect(
      within(card('メンバーシップ 月額プラン')).getByRole('link', { name: /^申し込む/ }),
    ).toHaveAttribute('href', '/service-plans/confirm?plan=monthly&next=%2Fposts%2Fabc%3Fx%3D1');
    expect(screen.getByRole('link', { name: /無料で会員登録/ })).toHaveAttribute(
      'href',
      '/sign-up?next=%2Fposts%2Fabc%3Fx%3D1',
    );
  });

  it('lets a signed-in reader without a plan choose one, with 「初回 N 日間無料」 when offered', () => {
    wrap(<PlansView plans={PLANS} viewer={member({ trialDays: 14 })} />);
    const yearly = card('メンバーシップ 年額プラン');
    expect(within(yearly).getByText('初回 14 日間無料')).toBeInTheDocument();
    expect(within(yearly).getByRole('link', { name: /このプランを選ぶ/ })).toHaveAttribute(
      'href',
      '/service-plans/confirm?plan=yearly',
    );
    expect(screen.queryByRole('link', { name: /ログインして申し込む/ })).toBeNull();
  });

  it('offers no trial to a reader who had one', () => {
    wrap(<PlansView plans={PLANS} viewer={member({ trialDays: 0 })} />);
    expect(screen.queryByText(/日間無料/)).toBeNull();
    expect(screen.getAllByRole('link', { name: /このプランを選ぶ/ })).toHaveLength(2);
  });

  it('shows a paid reader their plan, its renewal, the portal and receipts; other plans go through the notice', () => {
    wrap(<PlansView plans={PLANS} viewer={member({ customerId: 'cus_1', current: ACTIVE })} />);
    const panel = screen.getByRole('region', { name: 'ご利用中のプラン' });
    expect(within(panel).getByText('メンバーシップ 月額プラン')).toBeInTheDocument();
    expect(within(panel).getByText('有効')).toBeInTheDocument();
    expect(within(panel).getByText('次回更新日 2026年7月1日')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'プランの管理' })).toHaveStyle({
      width: '270px',
    });
    expect(within(panel).getByRole('link', { name: '領収書' })).toHaveAttribute(
      'href',
      '/account/receipts',
    );
    expect(within(card('メンバーシップ 月額プラン')).getByText('ご利用中')).toBeInTheDocument();
    const yearly = card('メンバーシップ 年額プラン');
    expect(within(yearly).getByText('プランの変更は『プランの管理』から')).toBeInTheDocument();
    expect(
      within(yearly).getByRole('button', { name: 'このプランに変更する' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /このプランを選ぶ/ })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says plainly when the plan is cancelled at its period end', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={member({ customerId: 'cus_1', current: { ...ACTIVE, cancelAtPeriodEnd: true } })}
      />,
    );
    expect(screen.getByText('解約予定（2026年7月1日まで利用できます）')).toBeInTheDocument();
    expect(screen.getByText('2026年7月1日で終了（自動更新されません）')).toBeInTheDocument();
    expect(screen.queryByText(/次回更新日/)).toBeNull();
  });

  it('shows a trial with its end date', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={member({
          customerId: 'cus_1',
          current: {
            ...ACTIVE,
            status: 'trialing',
            trialEnd: '2026-06-14T03:00:00.000Z',
            currentPeriodEnd: '2026-06-14T03:00:00.000Z',
          },
        })}
      />,
    );
    expect(screen.getByText('無料体験中（2026年6月14日まで）')).toBeInTheDocument();
  });

  it('states a failed renewal’s amount and next retry when the billing data has them', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={member({ customerId: 'cus_1', current: { ...ACTIVE, status: 'past_due' } })}
        pastDue={{ kind: 'past_due', amount: 1100, nextAttempt: '2026-12-02T15:30:00.000Z' }}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      'カードでのお支払い（¥1,100）ができませんでした。2026年12月3日に自動で再度決済します。',
    );
  });

  it('explains a failed renewal with the button to update the card', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={member({ customerId: 'cus_1', current: { ...ACTIVE, status: 'past_due' } })}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'カードでのお支払いができませんでした。カード情報を更新してください。更新すると自動で再決済されます。',
    );
    expect(within(alert).getByRole('button', { name: 'カード情報を更新する' })).toBeInTheDocument();
    expect(screen.getByText('お支払いが確認できません')).toBeInTheDocument();
    expect(screen.queryByText(/次回更新日/)).toBeNull();
    expect(screen.getByRole('button', { name: 'プランの管理' })).toBeInTheDocument();
    // One primary (yellow) button on the screen: updating the card; the portal is secondary.
    expect(within(alert).getByRole('button', { name: 'カード情報を更新する' })).toHaveStyle({
      backgroundColor: '#ebff00',
    });
    expect(screen.getByRole('button', { name: 'プランの管理' })).not.toHaveStyle({
      backgroundColor: '#ebff00',
    });
  });

  it('shows a complimentary plan and its end date, without the portal', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={member({
          current: {
            ...ACTIVE,
            provider: 'complimentary',
            planName: '招待プラン',
            planKey: null,
            currentPeriodEnd: '2026-12-31T03:00:00.000Z',
          },
        })}
      />,
    );
    const panel = screen.getByRole('region', { name: 'ご利用中のプラン' });
    expect(within(panel).getByText('招待プラン')).toBeInTheDocument();
    expect(within(panel).getByText('ご利用期限 2026年12月31日')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'プランの管理' })).toBeNull();
    expect(within(panel).queryByRole('link', { name: '領収書' })).toBeNull();
  });

  it('tells a reader sent back from the confirmation screen that they already have a plan', () => {
    wrap(
      <PlansView
        plans={PLANS}
        viewer={member({ customerId: 'cus_1', current: ACTIVE })}
        alreadySubscribed
      />,
    );
    expect(screen.getByText(/すでに有料プランをお申し込み済みです/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'プランの管理' })).toHaveLength(1);
  });

  it('offers the portal with that message when the plan is one the panel does not show', () => {
    wrap(<PlansView plans={PLANS} viewer={member({ customerId: 'cus_1' })} alreadySubscribed />);
    expect(screen.getByRole('status')).toHaveTextContent(/お申し込み済み/);
    expect(screen.getByRole('button', { name: 'プランの管理' })).toBeInTheDocument();
  });

  // One primary (yellow) action per screen (the "Done means"): the recommended plan.
  const primaries = (container: HTMLElement) =>
    [...container.querySelectorAll<HTMLElement>('a, button')].filter(
      (element) => element.style.backgroundColor === 'rgb(235, 255, 0)',
    );

  it('gives a visitor one primary button, the recommended plan’s; the other plan is secondary', () => {
    const { container } = wrap(
      <PlansView plans={PLANS} viewer={{ kind: 'anonymous', trialDays: 14 }} />,
    );
    const [primary, ...others] = primaries(container);
    expect(others).toHaveLength(0);
    expect(primary).toHaveAccessibleName(/申し込む\s*（メンバーシップ 年額プラン）/);
    expect(within(card('メンバーシップ 年額プラン')).getByText('おすすめ')).toBeInTheDocument();
    expect(within(card('メンバーシップ 月額プラン')).queryByText('おすすめ')).toBeNull();
    expect(
      within(card('メンバーシップ 月額プラン')).getByRole('link', { name: /^申し込む/ }),
    ).toHaveStyle({ backgroundColor: '#ffffff' });
  });

  it('gives a signed-in reader without a plan one primary button', () => {
    const { container } = wrap(<PlansView plans={PLANS} viewer={member({ trialDays: 14 })} />);
    const [primary, ...others] = primaries(container);
    expect(others).toHaveLength(0);
    expect(primary).toHaveAccessibleName(/このプランを選ぶ\s*（メンバーシップ 年額プラン）/);
  });

  it('recommends the plan on sale when the best value is not', () => {
    const { container } = wrap(
      <PlansView
        plans={[PLANS[0]!, { ...PLANS[1]!, active: false }]}
        viewer={{ kind: 'anonymous', trialDays: 0 }}
      />,
    );
    const [primary, ...others] = primaries(container);
    expect(others).toHaveLength(0);
    expect(primary).toHaveAccessibleName(/申し込む\s*（メンバーシップ 月額プラン）/);
  });

  it('has one primary button on every state of a reader’s plan', () => {
    const states: (CurrentPlanView | null)[] = [
      ACTIVE,
      { ...ACTIVE, status: 'past_due' },
      { ...ACTIVE, cancelAtPeriodEnd: true },
      // A plan the panel does not show (unpaid): the notice's portal button.
      null,
    ];
    for (const current of states) {
      const { container, unmount } = wrap(
        <PlansView
          plans={PLANS}
          viewer={member({ customerId: 'cus_1', current })}
          alreadySubscribed={!current}
        />,
      );
      expect(primaries(container)).toHaveLength(1);
      unmount();
    }
  });

  it('takes no applications for a plan that is not on sale', () => {
    wrap(
      <PlansView
        plans={[PLANS[0]!, { ...PLANS[1]!, active: false }]}
        viewer={member({ trialDays: 14 })}
      />,
    );
    const yearly = card('メンバーシップ 年額プラン');
    expect(within(yearly).queryByRole('link')).toBeNull();
    expect(within(yearly).getByText(/お申し込みを受け付けていません/)).toBeInTheDocument();
  });
});

describe('PlansView with an offer (?offer=CODE)', () => {
  // Named by staff for the monthly plan; the same coupon takes half off the yearly plan's year.
  const OFFER: OfferView = {
    code: 'WELCOME',
    name: '初月半額',
    percentOff: 50,
    amountOff: null,
    duration: 'once',
    durationInMonths: null,
    firstTimeOnly: true,
    products: null,
  };
  const anonymous: PlansViewer = { kind: 'anonymous', trialDays: 14 };

  it('names the discount and its period for each plan, never another plan’s', () => {
    wrap(<PlansView plans={PLANS} viewer={anonymous} offer={OFFER} />);
    const monthly = card('メンバーシップ 月額プラン');
    expect(monthly).toHaveTextContent('初月 ¥550（通常 ¥1,100）');
    expect(monthly).toHaveTextContent('クーポンコード「WELCOME」（初月半額）');
    const yearly = card('メンバーシップ 年額プラン');
    expect(yearly).toHaveTextContent('初年度 ¥5,500（通常 ¥11,000）');
    expect(yearly).toHaveTextContent('クーポンコード「WELCOME」（初年度半額）');
    expect(yearly).not.toHaveTextContent('初月');
  });

  it('promises no free trial where the offer replaces it, and says so', () => {
    wrap(<PlansView plans={PLANS} viewer={anonymous} offer={OFFER} />);
    expect(screen.queryByText(/日間無料/)).toBeNull();
    expect(
      screen.queryByText(/無料体験は、初めて有料プランをお申し込みになる方が対象です/),
    ).toBeNull();
    expect(
      screen.getByText(
        'クーポンコード「WELCOME」でのお申し込みには、無料体験はつきません（割引との併用はできません）。',
      ),
    ).toBeInTheDocument();
  });

  it('keeps the trial of a plan the offer does not apply to, and says which plans have the offer', () => {
    const plans = PLANS.map((plan) => ({ ...plan, productId: `prod_${plan.key}` }));
    wrap(
      <PlansView
        plans={plans}
        viewer={member({ trialDays: 14 })}
        offer={{ ...OFFER, products: ['prod_yearly'] }}
      />,
    );
    expect(card('メンバーシップ 月額プラン')).toHaveTextContent('初回 14 日間無料');
    expect(card('メンバーシップ 年額プラン')).not.toHaveTextContent('日間無料');
    expect(
      screen.getByText(
        /クーポンコード「WELCOME」の割引がある「メンバーシップ 年額プラン」は、無料体験の代わりに割引でのお申し込みになります/,
      ),
    ).toBeInTheDocument();
  });
});
