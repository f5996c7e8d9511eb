/**
 * `npm run bench:billing`: what billing costs the site, in process on a fresh embedded
 * database with the sandbox as the provider (BENCH_READERS readers, default 100):
 * - webhook events per second: verified only (the SDK's signature check, the floor) beside
 *   verified and applied (re-read from the provider, stored, mails claimed), in one run;
 * - starting a checkout (customer with its test clock, trial check, session), per reader;
 * - the plans page's billing lookup for a paying reader (billingSummaryFor).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { syncCatalogue } from '@/server/features/billing/catalogue';
import { startCheckout } from '@/server/features/billing/checkout';
import { billingProvider } from '@/server/features/billing/provider';
import { billingSummaryFor } from '@/server/features/billing/reader-billing';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { signatureHeader } from '@/server/services/billing-sandbox/webhooks';
import { ensureSandboxWebhook, webhookSecret } from '@/server/features/billing/sandbox-setup';
import { handleBillingWebhook } from '@/server/features/billing/webhook';
import { billingWebhookEvents, user } from '@/server/platform/db/schema';
import { openDatabase } from '@/server/platform/db/client';
import { createProfiles } from '@/server/features/profiles/profiles';

const READERS = Number(process.env.BENCH_READERS ?? 100);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed<T>(samples: number[], run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  samples.push(performance.now() - started);
  return result;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bench-billing-'));
const database = await openDatabase({ dataDir, migrate: true });
const { db } = database;
const { stripe } = await billingProvider(db);
await syncCatalogue(db);
await ensureSandboxWebhook(db);
const secret = (await webhookSecret(db))!;

// Readers go through checkout and the hosted page; the events are collected, not delivered.
const checkoutTimes: number[] = [];
const readers: string[] = [];
for (let i = 0; i < READERS; i++) {
  const id = `bench-${i}`;
  const email = `${id}@example.jp`;
  await db.insert(user).values({ id, name: `読者 ${i}`, email });
  await createProfiles(db, { userId: id, email, displayName: `読者 ${i}` });
  const started = await timed(checkoutTimes, () =>
    startCheckout(db, { id, email, name: `読者 ${i}` }, i % 2 ? 'yearly' : 'monthly', null),
  );
  const paid = await handleBillingSandbox(
    new Request(started.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(started.url).origin,
      },
      body: new URLSearchParams({
        number: '4242424242424242',
        exp: '12/40',
        cvc: '123',
        name: 'A',
      }),
    }),
    db,
  );
  if (paid.status !== 303) throw new Error(`the hosted checkout answered ${paid.status}`);
  readers.push(id);
}
const events: Stripe.Event[] = [];
for await (const event of stripe.events.list({ limit: 100 })) events.push(event);
events.reverse();

const now = () => Math.floor(Date.now() / 1000);
const bodies = events.map((event) => JSON.stringify(event));

let started = performance.now();
for (const body of bodies) {
  Stripe.webhooks.constructEvent(body, signatureHeader(body, secret, now()), secret, 300);
}
const verifySeconds = (performance.now() - started) / 1000;

const applyTimes: number[] = [];
started = performance.now();
for (const body of bodies) {
  const answer = await timed(applyTimes, () =>
    handleBillingWebhook(
      new Request('http://localhost/api/webhooks/billing', {
        method: 'POST',
        body,
        headers: { 'stripe-signature': signatureHeader(body, secret, now()) },
      }),
      db,
    ),
  );
  if (answer.status !== 200) throw new Error(`webhook answered ${answer.status}`);
}
const applySeconds = (performance.now() - started) / 1000;
const applied = (await db.select().from(billingWebhookEvents)).length;

const summaryTimes: number[] = [];
for (const id of readers) await timed(summaryTimes, () => billingSummaryFor(db, id));
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const verifyRate = bodies.length / verifySeconds;
const applyRate = bodies.length / applySeconds;
console.log(
  `\nbilling (embedded PGlite, sandbox in process, ${READERS} readers, ${bodies.length} events)\n`,
);
console.log('| measure | figure |');
console.log('| --- | --- |');
console.log(`| webhook events verified only (signature) | ${verifyRate.toFixed(0)} /s |`);
console.log(
  `| webhook events verified and applied | ${applyRate.toFixed(0)} /s (${(applyRate / verifyRate).toFixed(3)}× verify only), p50 ${ms(percentile(applyTimes, 50))}, p95 ${ms(percentile(applyTimes, 95))}; ${applied} recorded once |`,
);
console.log(
  `| start a checkout | p50 ${ms(percentile(checkoutTimes, 50))}, p95 ${ms(percentile(checkoutTimes, 95))} |`,
);
console.log(
  `| plans page billing lookup | p50 ${ms(percentile(summaryTimes, 50))}, p95 ${ms(percentile(summaryTimes, 95))} |`,
);
