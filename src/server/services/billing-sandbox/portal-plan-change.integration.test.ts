import { describe, expect, it } from 'vitest';
import { customerWithCard } from '@test-support/billing-sandbox';
import { expectSandboxPage, pathOf, usePagesSandbox } from '@test-support/billing-sandbox-pages';
import { DAY, utc } from '@test-support/unix-time';

/**
 * A change of plan in the sandbox's portal takes no money before the reader has seen, on a
 * confirmation page, what is charged today, the new plan's period and the next renewal date
 * (as Stripe's portal shows the amount due before the change is confirmed). Driven as a
 * browser without JavaScript would: the home page's form is a GET to the confirmation, whose
 * button POSTs the change.
 */

describe('the portal’s plan change confirmation', () => {
  const pages = usePagesSandbox();

  async function subscribed(start: number, priceId: string) {
    const clock = await pages.stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await customerWithCard(pages.stripe, {
      email: `change-${clock.id}@example.jp`,
      test_clock: clock.id,
    });
    const subscription = await pages.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: priceId }],
    });
    const session = await pages.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'https://axis.example.jp/account',
    });
    return { clock, customer, subscription, path: pathOf(session.url) };
  }

  const invoiceCount = async (customer: string) =>
    (await pages.stripe.invoices.list({ customer })).data.length;

  it('sends the plan form to a confirmation page that changes nothing', async () => {
    const start = utc(2027, 4, 1);
    const { customer, subscription, path } = await subscribed(start, pages.monthly.id);
    const home = await pages.fetchPage(path);
    expect(home.text).toMatch(/<form method="get" action="[^"]*\/change" class="change-plan">/);
    expect(home.text).not.toMatch(/<form method="post" action="[^"]*\/change"/);

    const invoicesBefore = await invoiceCount(customer.id);
    const confirm = await pages.fetchPage(
      `${path}/change?subscription=${subscription.id}&price=${pages.yearly.id}`,
    );
    expect(confirm.status).toBe(200);
    await expectSandboxPage(confirm, {
      headers: true,
      shows: [
        'プラン変更の確認',
        '本日のお支払い',
        '<strong>¥11,000</strong>（税込）',
        // Monthly → yearly: a new period from today (the clock's time), renewing a year later.
        '2027年4月1日〜2028年4月1日',
        '次回の更新日',
        '2028年4月1日（¥11,000（税込）を請求）',
        '変更を確定する',
      ],
    });
    expect(confirm.text).toMatch(/<form method="post" action="[^"]*\/change">/);
    expect(confirm.text).toContain(`value="${pages.yearly.id}"`);
    expect(confirm.text).toContain(`<a href="${path}">戻る</a>`);

    // Seeing the page charged nothing and changed nothing.
    expect(await invoiceCount(customer.id)).toBe(invoicesBefore);
    const unchanged = await pages.stripe.subscriptions.retrieve(subscription.id);
    expect(unchanged.items.data[0]?.price.id).toBe(pages.monthly.id);

    // The confirm button makes the change, and bills what the page said.
    const changed = await pages.postForm(`${path}/change`, {
      subscription: subscription.id,
      price: pages.yearly.id,
    });
    expect(changed.location).toBe(`${pages.base}${path}?message=changed`);
    const after = await pages.stripe.subscriptions.retrieve(subscription.id);
    expect(after.items.data[0]).toMatchObject({
      price: { id: pages.yearly.id },
      current_period_start: start,
      current_period_end: utc(2028, 4, 1),
    });
    const invoice = await pages.stripe.invoices.retrieve(after.latest_invoice as string);
    expect(invoice).toMatchObject({ total: 11000, amount_paid: 11000, status: 'paid' });
  });

  it('says a change within the same interval charges nothing today and keeps the renewal date', async () => {
    const start = utc(2027, 4, 1);
    const { clock, subscription, path } = await subscribed(start, pages.monthly.id);
    await pages.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 10 * DAY });
    const confirm = await pages.fetchPage(
      `${path}/change?subscription=${subscription.id}&price=${pages.premium.id}`,
    );
    expect(confirm.status).toBe(200);
    await expectSandboxPage(confirm, {
      shows: [
        '<strong>¥0</strong>（税込）',
        '2027年4月1日〜2027年5月1日',
        '2027年5月1日（¥2,200（税込）を請求）',
        '本日の請求はなく',
      ],
    });
  });

  it('refuses a price not on offer and another customer’s subscription', async () => {
    const start = utc(2027, 4, 1);
    const mine = await subscribed(start, pages.monthly.id);
    const other = await subscribed(start, pages.monthly.id);
    const oneTime = await pages.fetchPage(
      `${mine.path}/change?subscription=${mine.subscription.id}&price=${pages.oneTime.id}`,
    );
    expect(oneTime.status).toBe(400);
    expect(oneTime.text).toContain('このプランには変更できません');
    const current = await pages.fetchPage(
      `${mine.path}/change?subscription=${mine.subscription.id}&price=${pages.monthly.id}`,
    );
    expect(current.status).toBe(400);
    const foreign = await pages.fetchPage(
      `${mine.path}/change?subscription=${other.subscription.id}&price=${pages.yearly.id}`,
    );
    expect(foreign.status).toBe(404);
  });
});
