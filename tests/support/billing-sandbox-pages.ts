import { createHash } from 'node:crypto';
import axe from 'axe-core';
import type Stripe from 'stripe';
import { expect } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { billingSandboxObjects } from '@/server/platform/db/schema';
import {
  type RunningSandbox,
  productWithPrices,
  startSandbox,
  startedForFile,
} from './billing-sandbox';

/**
 * Test helper for the sandbox's own checkout and portal pages, driven as a browser without
 * JavaScript would: GET the page, POST its form, follow the 303.
 */

export type Page = { status: number; headers: Headers; text: string; location: string | null };

/** The sandbox with the prices the page tests sell, and a client for its pages. */
export type PagesSandbox = {
  sandbox: RunningSandbox;
  stripe: Stripe;
  database: Database;
  /** The sandbox's origin, `http://127.0.0.1:<port>`. */
  base: string;
  monthly: Stripe.Price;
  premium: Stripe.Price;
  yearly: Stripe.Price;
  oneTime: Stripe.Price;
  fetchPage: (path: string, init?: RequestInit) => Promise<Page>;
  /** A form post as a browser on the page sends it (same origin unless told). */
  postForm: (path: string, fields: Record<string, string>, headers?: HeadersInit) => Promise<Page>;
  /**
   * A customer on a test clock of its own (frozen at `start`; its address starts with `label`)
   * and a checkout session selling it the monthly plan, with a trial of `trialDays` if given.
   */
  clockedCheckout: (options: {
    label: string;
    start: number;
    successUrl: string;
    trialDays?: number;
  }) => Promise<{
    clock: Stripe.TestHelpers.TestClock;
    customer: Stripe.Customer;
    session: Stripe.Checkout.Session;
  }>;
};

/**
 * The sandbox of this test file with the prices the page tests sell, started before its tests
 * and closed after them. Its fields are read when used, so the returned object can stand at the
 * top of the describe block (as testDatabase() does for a database).
 */
export function usePagesSandbox(): PagesSandbox {
  return startedForFile(startPagesSandbox, (pages) => pages.sandbox.close());
}

async function startPagesSandbox(): Promise<PagesSandbox> {
  const sandbox = await startSandbox();
  const { stripe } = sandbox;
  const base = `http://127.0.0.1:${sandbox.port}`;
  const price = await productWithPrices(stripe, { id: 'prod_axis', name: 'AXIS 会員' });
  const monthly = await price(1100, 'month');
  const premium = await price(2200, 'month');
  const yearly = await price(11000, 'year');
  const oneTime = await stripe.prices.create({
    product: 'prod_axis',
    currency: 'jpy',
    unit_amount: 500,
  });

  async function fetchPage(path: string, init: RequestInit = {}): Promise<Page> {
    const response = await fetch(path.startsWith('http') ? path : `${base}${path}`, {
      redirect: 'manual',
      ...init,
    });
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location'),
    };
  }

  function postForm(path: string, fields: Record<string, string>, headers: HeadersInit = {}) {
    return fetchPage(path, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: base,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  const clockedCheckout: PagesSandbox['clockedCheckout'] = async ({
    label,
    start,
    successUrl,
    trialDays,
  }) => {
    const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
    const customer = await stripe.customers.create({
      email: `${label}-${clock.id}@example.jp`,
      test_clock: clock.id,
    });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id, quantity: 1 }],
      customer: customer.id,
      success_url: successUrl,
      ...(trialDays ? { subscription_data: { trial_period_days: trialDays } } : {}),
    });
    return { clock, customer, session };
  };

  return {
    sandbox,
    stripe,
    database: sandbox.database,
    base,
    monthly,
    premium,
    yearly,
    oneTime,
    fetchPage,
    postForm,
    clockedCheckout,
  };
}

/** The card form's fields as a cardholder fills them in, with that card number. */
export const cardFields = (number: string) => ({
  number,
  exp: `12/${(new Date().getUTCFullYear() + 3) % 100}`,
  cvc: '123',
  name: 'TARO YAMADA',
});

export const pathOf = (url: string | null) => new URL(url ?? '').pathname;

/** The events of that type whose object is `objectId`, newest first. */
export async function eventsOfType(
  stripe: Stripe,
  type: string,
  objectId: string,
): Promise<Stripe.Event[]> {
  const events: Stripe.Event[] = [];
  for await (const event of stripe.events.list({ type, limit: 100 })) {
    if ((event.data.object as { id?: string }).id === objectId) events.push(event);
  }
  return events;
}

/** axe-core's rules on a page, in jsdom (contrast is checked on the palette: styles.ts). */
async function axeViolations(markup: string): Promise<string[]> {
  // jsdom ships no types of its own; the little used here is typed by hand.
  const name = 'jsdom';
  const { JSDOM, VirtualConsole } = (await import(name)) as {
    JSDOM: new (
      html: string,
      options: object,
    ) => { window: Window & { eval(code: string): void; axe: typeof axe; close(): void } };
    VirtualConsole: new () => object;
  };
  const dom = new JSDOM(markup, {
    runScripts: 'outside-only',
    pretendToBeVisual: true,
    virtualConsole: new VirtualConsole(),
  });
  dom.window.eval(axe.source);
  const results = await dom.window.axe.run(dom.window.document, {
    resultTypes: ['violations'],
    rules: { 'color-contrast': { enabled: false } },
  });
  dom.window.close();
  return results.violations.map(
    (violation) =>
      `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}

/**
 * One of the sandbox's own pages, as every page of it must be: marked as a test environment, in
 * Japanese, with one h1 inside <main>, showing each of `shows`, without an axe violation; with
 * `headers`, also answered with the pages' security headers.
 */
export async function expectSandboxPage(
  page: Page,
  { headers = false, shows = [] }: { headers?: boolean; shows?: string[] } = {},
): Promise<void> {
  if (headers) expectPageHeaders(page);
  expectTestPage(page);
  for (const text of shows) expect(page.text).toContain(text);
  expect(await axeViolations(page.text)).toEqual([]);
}

function expectPageHeaders(page: Page) {
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('cache-control')).toBe('no-store');
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('referrer-policy')).toBe('same-origin');
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toMatch(/form-action 'self'/);
  // The one stylesheet is allowed by its hash, and nothing is loaded from anywhere.
  const style = /<style>([\s\S]*?)<\/style>/.exec(page.text)?.[1] ?? '';
  const hash = createHash('sha256').update(style).digest('base64');
  expect(csp).toContain(`style-src 'sha256-${hash}'`);
  expect(page.text).not.toMatch(/<script|<link|<img|src=|url\(|style="/i);
}

function expectTestPage(page: Page) {
  expect(page.text).toContain('<html lang="ja">');
  expect(page.text).toContain('テスト環境：実際のカードは使えません。請求は発生しません。');
  expect(page.text.match(/<h1/g)).toHaveLength(1);
  expect(page.text).toMatch(/<main>[\s\S]*<h1/);
}

/** No card number typed into a page is kept anywhere in the sandbox's objects. */
export async function expectNoCardNumberStored(database: Database) {
  const rows = await database.db
    .select({ data: billingSandboxObjects.data })
    .from(billingSandboxObjects);
  const stored = JSON.stringify(rows);
  expect(stored).not.toContain('4242424242424242');
  expect(stored).not.toContain('4242 4242 4242 4242');
}
