import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  cardFields,
  eventsOfType,
  pathOf,
  usePagesSandbox,
} from '@test-support/billing-sandbox-pages';
import { DAY, utc } from '@test-support/unix-time';

/**
 * Post-payment invoices (`invoice_creation` on a Checkout Session in `payment` mode): the paid
 * invoice a one-time payment leaves once it succeeds — by card or PayPay at completion, by
 * konbini when the voucher is paid — numbered in the customer's sequence with its
 * subscription invoices, through the official SDK and the sandbox's pages.
 */

const SUCCESS_URL = 'https://axis.example.jp/posts/p1?purchase={CHECKOUT_SESSION_ID}';
const PAY_PATH = (id: string) => `/v1/test_helpers/sandbox/konbini_payments/${id}/pay`;

/** 2026-12-01 10:00 UTC, 19:00 in Japan. */
const START = utc(2026, 12, 1) + 10 * 3600;

const INVOICE_DATA = {
  description: '記事単体購入',
  footer: '株式会社アクシス 登録番号 T1234567890123',
  metadata: { purchase: 'pur_1' },
  custom_fields: [{ name: '購入番号', value: 'pur_1' }],
  rendering_options: { amount_tax_display: 'include_inclusive_tax' as const },
};

describe('billing sandbox post-payment invoices', () => {
  const pages = usePagesSandbox();

  function paymentSession(params: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
    return pages.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: {
            currency: 'jpy',
            unit_amount: 1100,
            tax_behavior: 'inclusive',
            product_data: { name: '記事「デザインの余白」' },
          },
          quantity: 1,
        },
      ],
      allowed_payment_method_types: ['card', 'konbini', 'paypay'],
      success_url: SUCCESS_URL,
      metadata: { purchase: 'pur_1' },
      invoice_creation: { enabled: true, invoice_data: INVOICE_DATA },
      ...params,
    });
  }

  async function eventTypesOf(id: string): Promise<string[]> {
    const types: string[] = [];
    for await (const event of pages.stripe.events.list({ limit: 100 })) {
      if ((event.data.object as { id: string }).id === id) types.push(event.type);
    }
    return types.reverse();
  }

  const invoicesOf = async (customer: string) =>
    (await pages.stripe.invoices.list({ customer })).data;

  it('pays by card: one paid invoice, next in the customer’s sequence, with tax and invoice_data', async () => {
    const { customer } = await pages.sandbox.subscribedCustomer(START, '4242424242424242', {
      items: [{ price: pages.monthly.id }],
    });
    const [subscriptionInvoice] = await invoicesOf(customer.id);
    expect(subscriptionInvoice?.number).toBe(`${customer.invoice_prefix}-0001`);
    const session = await paymentSession({ customer: customer.id });
    expect(session).toMatchObject({
      invoice: null,
      invoice_creation: {
        enabled: true,
        invoice_data: {
          ...INVOICE_DATA,
          account_tax_ids: null,
          issuer: null,
          rendering_options: { amount_tax_display: 'include_inclusive_tax', template: null },
        },
      },
    });
    const paid = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
    expect(paid.status).toBe(303);

    const completed = await pages.stripe.checkout.sessions.retrieve(session.id, {
      expand: ['invoice'],
    });
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const invoice = completed.invoice as Stripe.Invoice;
    expect(invoice).toMatchObject({
      object: 'invoice',
      status: 'paid',
      customer: customer.id,
      number: `${customer.invoice_prefix}-0002`,
      billing_reason: 'manual',
      parent: null,
      currency: 'jpy',
      subtotal: 1100,
      total: 1100,
      amount_due: 1100,
      amount_paid: 1100,
      amount_remaining: 0,
      total_excluding_tax: 1000,
      total_taxes: [
        {
          amount: 100,
          tax_behavior: 'inclusive',
          taxable_amount: 1000,
          tax_rate_details: { tax_rate: 'txr_sandbox_jp_consumption_10' },
        },
      ],
      description: '記事単体購入',
      footer: INVOICE_DATA.footer,
      metadata: { purchase: 'pur_1' },
      custom_fields: [{ name: '購入番号', value: 'pur_1' }],
      rendering: { amount_tax_display: 'include_inclusive_tax' },
      created: START,
      status_transitions: { finalized_at: START, paid_at: START },
      test_clock: customer.test_clock,
    });
    expect(invoice.lines.data).toHaveLength(1);
    expect(invoice.lines.data[0]).toMatchObject({
      description: '記事「デザインの余白」',
      amount: 1100,
      quantity: 1,
      period: { start: START, end: START },
      parent: { type: 'invoice_item_details', subscription_item_details: null },
      taxes: [{ amount: 100, taxable_amount: 1000, tax_behavior: 'inclusive' }],
    });
    // No subscription made it: its parent is null, and expands to null as on Stripe.
    const expanded = await pages.stripe.invoices.retrieve(invoice.id, {
      expand: ['parent.subscription_details.subscription'],
    });
    expect(expanded.parent).toBeNull();
    expect((await invoicesOf(customer.id)).map((item) => item.id)).toEqual([
      invoice.id,
      subscriptionInvoice?.id,
    ]);
    expect(await eventTypesOf(invoice.id)).toEqual([
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    const [event] = await eventsOfType(pages.stripe, 'checkout.session.completed', session.id);
    expect(event?.data.object).toMatchObject({ invoice: invoice.id, payment_status: 'paid' });

    // A refund leaves the invoice paid, as on Stripe (a credit note would say what was refunded).
    await pages.stripe.refunds.create({ payment_intent: completed.payment_intent as string });
    expect(await pages.stripe.invoices.retrieve(invoice.id)).toMatchObject({
      status: 'paid',
      amount_paid: 1100,
    });
  });

  it('makes a customer for a guest (customer_creation if_required) and invoices it, by PayPay', async () => {
    const session = await paymentSession({ customer_email: 'guest-invoice@example.jp' });
    expect(session).toMatchObject({ customer: null, customer_creation: 'if_required' });
    const started = await pages.postForm(pathOf(session.url), { method: 'paypay' });
    await pages.postForm(started.location ?? '', { result: 'approve' });
    const completed = await pages.stripe.checkout.sessions.retrieve(session.id, {
      expand: ['customer', 'invoice'],
    });
    const customer = completed.customer as Stripe.Customer;
    expect(customer).toMatchObject({ object: 'customer', email: 'guest-invoice@example.jp' });
    expect(completed.invoice).toMatchObject({
      status: 'paid',
      customer: customer.id,
      customer_email: 'guest-invoice@example.jp',
      number: `${customer.invoice_prefix}-0001`,
      total: 1100,
    });
  });

  it('leaves no invoice without invoice_creation', async () => {
    const customer = await pages.stripe.customers.create({ email: 'no-invoice@example.jp' });
    const session = await paymentSession({ customer: customer.id, invoice_creation: undefined });
    expect(session.invoice_creation).toMatchObject({ enabled: false });
    await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
    const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
    expect(completed).toMatchObject({ payment_status: 'paid', invoice: null });
    expect(await invoicesOf(customer.id)).toEqual([]);
  });

  describe('konbini', () => {
    async function confirmedOnClock(email: string) {
      const clock = await pages.stripe.testHelpers.testClocks.create({ frozen_time: START });
      const customer = await pages.stripe.customers.create({ email, test_clock: clock.id });
      const session = await paymentSession({ customer: customer.id });
      await pages.postForm(pathOf(session.url), { method: 'konbini' });
      const unpaid = await pages.stripe.checkout.sessions.retrieve(session.id);
      return { clock, customer, session: unpaid, intent: unpaid.payment_intent as string };
    }

    it('invoices once the voucher is paid, not at the unpaid completion', async () => {
      const { clock, customer, session, intent } = await confirmedOnClock('konbini-inv@example.jp');
      expect(session).toMatchObject({
        status: 'complete',
        payment_status: 'unpaid',
        invoice: null,
      });
      expect(await invoicesOf(customer.id)).toEqual([]);

      await pages.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + DAY });
      await pages.stripe.rawRequest('POST', PAY_PATH(intent), {});
      const settled = await pages.stripe.checkout.sessions.retrieve(session.id);
      const [invoice] = await invoicesOf(customer.id);
      expect(settled).toMatchObject({ payment_status: 'paid', invoice: invoice?.id });
      expect(invoice).toMatchObject({
        status: 'paid',
        number: `${customer.invoice_prefix}-0001`,
        total: 1100,
        metadata: { purchase: 'pur_1' },
        status_transitions: { paid_at: START + DAY },
      });
      const [succeeded] = await eventsOfType(
        pages.stripe,
        'checkout.session.async_payment_succeeded',
        session.id,
      );
      expect(succeeded?.data.object).toMatchObject({ invoice: invoice?.id });
      expect(await eventTypesOf(invoice?.id ?? '')).toEqual([
        'invoice.created',
        'invoice.finalized',
        'invoice.paid',
        'invoice.payment_succeeded',
      ]);
    });

    it('leaves no invoice when the voucher expires unpaid', async () => {
      const { clock, customer, session } = await confirmedOnClock('konbini-noinv@example.jp');
      await pages.stripe.testHelpers.testClocks.advance(clock.id, {
        frozen_time: START + 10 * DAY,
      });
      expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        payment_status: 'unpaid',
        invoice: null,
      });
      expect(await invoicesOf(customer.id)).toEqual([]);
    });
  });

  it('refuses invoice_creation where Stripe refuses it', async () => {
    const refused = (params: Partial<Stripe.Checkout.SessionCreateParams>) =>
      paymentSession({ customer_email: 'refused@example.jp', ...params }).catch(
        (caught: unknown) => caught,
      );
    const subscription = await refused({
      mode: 'subscription',
      line_items: [{ price: pages.monthly.id, quantity: 1 }],
      allowed_payment_method_types: undefined,
      invoice_creation: { enabled: true },
    });
    expect(subscription).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(subscription).toMatchObject({
      param: 'invoice_creation',
      message: expect.stringMatching(
        /only enable invoice creation when `mode` is set to `payment`/,
      ) as string,
    });
    const tooMany = Array.from({ length: 5 }, (_, index) => ({ name: `f${index}`, value: 'v' }));
    expect(
      await refused({
        invoice_creation: { enabled: true, invoice_data: { custom_fields: tooMany } },
      }),
    ).toMatchObject({ param: 'invoice_creation[invoice_data][custom_fields]' });
    // The sandbox has no account tax IDs to name (the site prints its registration number).
    expect(
      await refused({
        invoice_creation: { enabled: true, invoice_data: { account_tax_ids: ['txi_1'] } },
      }),
    ).toMatchObject({ param: 'invoice_creation[invoice_data][account_tax_ids]' });
    expect(
      await refused({
        invoice_creation: {
          invoice_data: { description: '記事単体購入' },
        } as Stripe.Checkout.SessionCreateParams.InvoiceCreation,
      }),
    ).toMatchObject({ param: 'invoice_creation[enabled]' });
  });
});
