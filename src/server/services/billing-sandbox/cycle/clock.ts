import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { previousAttributes, recordEvent } from '../events';
import {
  type FieldFilter,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  newObjectId,
  type SandboxObject,
  saveObject,
} from '../object-store';
import {
  CUSTOMER_TYPE,
  INVOICE_TYPE,
  itemOf,
  LIVE_STATUSES,
  nextPeriodEnd,
  num,
  priceOf,
  recurringOf,
  SUBSCRIPTION_TYPE,
} from './calendar';
import { attemptPayment, INCOMPLETE_EXPIRY_SECONDS, transitionsOf } from './payments';
import { discountsStillLive } from './discounts';
import { issueInvoice, pendingItemLines, priceLine } from './invoices';
import { OVERDUE_NOTICE_TYPE, pendingOverdueNotices, sendOverdueNotice } from './send-invoice';
import {
  cancelSubscriptionNow,
  lockedCustomer,
  saveWithEvent,
  settleAfterPayment,
  stopCollection,
  subscriptionIdOf,
  TRIAL_NOTICE_TYPE,
  trialNoticeId,
  withItem,
} from './subscriptions';

/**
 * Time passing: the transitions a subscription goes through as its (test clock's or the real)
 * time moves on (trial end and its notice, renewal, payment retries and dunning, incomplete
 * expiry, cancellation at period end), run in time order. advanceClocklessSubscriptions opens
 * its own transaction.
 */

/** Statuses in which something is still due to happen to a subscription at a set time. */
const TIMED_STATUSES = [...LIVE_STATUSES, 'incomplete'];

/** A subscription being moved through time, with what is pending on it. */
type Track = {
  subscription: SandboxObject;
  /** Its open invoices with a retry scheduled. */
  retrying: SandboxObject[];
  /** Its pending trial_will_end notice, if any. */
  notice: SandboxObject | null;
  /** Its send_invoice invoices' overdue notices not yet sent. */
  overdue: SandboxObject[];
};

type Transition = {
  at: number;
  kind: 'expire' | 'retry' | 'overdue' | 'trial_will_end' | 'period_end';
  invoice?: SandboxObject;
  notice?: SandboxObject;
};

/** At one instant: an expiry first, then retries of older invoices, then a period's end. */
const KIND_ORDER: Transition['kind'][] = [
  'expire',
  'retry',
  'overdue',
  'trial_will_end',
  'period_end',
];

async function loadTrack(db: Db, subscription: SandboxObject): Promise<Track> {
  const open = await findAllObjects(db, INVOICE_TYPE, [
    { field: 'parent.subscription_details.subscription', in: [subscription.id] },
    { field: 'status', in: ['open'] },
  ]);
  const notice =
    subscription.status === 'trialing'
      ? await findObject(db, TRIAL_NOTICE_TYPE, trialNoticeId(subscription.id))
      : null;
  return {
    subscription,
    retrying: open.filter((invoice) => typeof invoice.next_payment_attempt === 'number'),
    notice,
    overdue: await pendingOverdueNotices(db, subscription.id),
  };
}

/** What time next does to a subscription, or null if nothing. */
function nextTransition(track: Track): Transition | null {
  const { subscription, notice } = track;
  const status = String(subscription.status);
  const candidates: Transition[] = [];
  if (status === 'incomplete') {
    candidates.push({
      at: num(subscription, 'created') + INCOMPLETE_EXPIRY_SECONDS,
      kind: 'expire',
    });
  }
  if (LIVE_STATUSES.includes(status)) {
    for (const invoice of track.retrying) {
      candidates.push({ at: num(invoice, 'next_payment_attempt'), kind: 'retry', invoice });
    }
    for (const overdue of track.overdue) {
      candidates.push({ at: num(overdue, 'due_at'), kind: 'overdue', notice: overdue });
    }
    if (status === 'trialing' && notice && notice.sent_at === null) {
      candidates.push({ at: num(notice, 'due_at'), kind: 'trial_will_end' });
    }
    candidates.push({ at: num(itemOf(subscription), 'current_period_end'), kind: 'period_end' });
  }
  candidates.sort((a, b) => a.at - b.at || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return candidates[0] ?? null;
}

/** Moves a subscription over the boundary at its current period's end. */
async function crossPeriodEnd(db: Db, track: Track): Promise<void> {
  const current = track.subscription;
  const item = itemOf(current);
  const at = num(item, 'current_period_end');
  if (current.cancel_at_period_end) {
    const canceled: SandboxObject = {
      ...current,
      status: 'canceled',
      ended_at: at,
      canceled_at: current.canceled_at ?? at,
    };
    await saveObject(db, canceled);
    await stopCollection(db, canceled.id);
    await recordEvent(db, 'customer.subscription.deleted', canceled, at);
    track.subscription = canceled;
    track.retrying = [];
    return;
  }
  const customer = await findObject(db, CUSTOMER_TYPE, String(current.customer));
  if (!customer) throw new Error(`billing sandbox: no customer for ${current.id}`);
  const price = priceOf(current);
  const newEnd = nextPeriodEnd(num(current, 'billing_cycle_anchor'), recurringOf(price), at);
  const invoiceId = newObjectId('in');
  let next = withItem(current, { start: at, end: newEnd });
  // A trial ends here; a past_due subscription stays so until an invoice of it is paid.
  if (next.status === 'trialing') next.status = 'active';
  next.latest_invoice = invoiceId;
  // A discount that has ended (a `once` one used, a `repeating` one past its end) is dropped.
  if ((current.discounts as string[]).length > 0) {
    next.discounts = await discountsStillLive(db, current, at);
  }
  next = await saveWithEvent(db, current, next, at);
  const lines = await pendingItemLines(db, next);
  const quantity = num(itemOf(next), 'quantity');
  lines.unshift(await priceLine(db, price, { start: at, end: newEnd }, quantity));
  const { invoice, outcome } = await issueInvoice(db, {
    id: invoiceId,
    subscription: next,
    customer,
    billingReason: 'subscription_cycle',
    at,
    periodStart: num(item, 'current_period_start'),
    periodEnd: at,
    lines,
  });
  track.subscription = await settleAfterPayment(db, next, invoice, outcome, at);
  if (typeof invoice.next_payment_attempt === 'number') track.retrying.push(invoice);
  track.overdue = await pendingOverdueNotices(db, next.id);
}

/** A send_invoice invoice unpaid at its due date: `invoice.overdue`, the subscription past_due. */
async function markOverdue(db: Db, track: Track, notice: SandboxObject, at: number) {
  track.overdue = track.overdue.filter((other) => other.id !== notice.id);
  if (!(await sendOverdueNotice(db, notice, at))) return;
  const current = track.subscription;
  if (current.status !== 'active') return;
  track.subscription = await saveWithEvent(db, current, { ...current, status: 'past_due' }, at);
}

/**
 * A scheduled retry. Paid: the subscription is active again. The last one failed: Stripe's
 * "cancel the subscription" and "mark the invoice as uncollectible" settings.
 */
async function retryPayment(db: Db, track: Track, invoice: SandboxObject, at: number) {
  const customer = await lockedCustomer(db, String(invoice.customer));
  const result = await attemptPayment(db, invoice, track.subscription, customer, at, {
    scheduled: true,
  });
  track.retrying = track.retrying.filter((other) => other.id !== invoice.id);
  if (result.outcome === 'paid') {
    track.subscription = await settleAfterPayment(
      db,
      track.subscription,
      result.invoice,
      'paid',
      at,
    );
    return;
  }
  if (result.invoice.next_payment_attempt !== null) {
    track.retrying.push(result.invoice);
    return;
  }
  const canceled = await cancelSubscriptionNow(db, track.subscription, at, 'payment_failed');
  const uncollectible: SandboxObject = {
    ...result.invoice,
    status: 'uncollectible',
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...transitionsOf(result.invoice), marked_uncollectible_at: at },
  };
  await saveObject(db, uncollectible);
  await recordEvent(db, 'invoice.marked_uncollectible', uncollectible, at);
  track.subscription = canceled;
  track.retrying = [];
}

/**
 * 23 hours after an `incomplete` subscription was made without its first invoice paid: it
 * becomes `incomplete_expired` (`customer.subscription.updated`) and the invoice is voided
 * (`invoice.voided`), giving back any customer credit it had used.
 */
async function expireIncomplete(db: Db, track: Track, at: number): Promise<void> {
  const current = track.subscription;
  const expired: SandboxObject = {
    ...current,
    status: 'incomplete_expired',
    canceled_at: at,
    ended_at: at,
  };
  track.subscription = await saveWithEvent(db, current, expired, at);
  track.retrying = [];
  const latest = current.latest_invoice;
  const invoice = typeof latest === 'string' ? await findObject(db, INVOICE_TYPE, latest) : null;
  if (invoice?.status !== 'open') return;
  const credit = num(invoice, 'ending_balance') - num(invoice, 'starting_balance');
  if (credit !== 0) {
    const customer = await lockedCustomer(db, String(invoice.customer));
    const after: SandboxObject = { ...customer, balance: num(customer, 'balance') - credit };
    await saveObject(db, after);
    await recordEvent(db, 'customer.updated', after, at, previousAttributes(customer, after));
  }
  const voided: SandboxObject = {
    ...invoice,
    status: 'void',
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...transitionsOf(invoice), voided_at: at },
  };
  await saveObject(db, voided);
  await recordEvent(db, 'invoice.voided', voided, at);
}

async function sendTrialNotice(db: Db, track: Track, at: number): Promise<void> {
  if (!track.notice) return;
  await recordEvent(db, 'customer.subscription.trial_will_end', track.subscription, at);
  track.notice = { ...track.notice, sent_at: at };
  await saveObject(db, track.notice);
}

/**
 * Runs every transition due up to `target` across the subscriptions, in time order, so that
 * events come out in the order they happened. Answers how many it ran.
 */
async function runDue(db: Db, tracks: Track[], target: number): Promise<number> {
  for (let steps = 0; steps < 100_000; steps++) {
    let due: { track: Track; transition: Transition } | null = null;
    for (const track of tracks) {
      const transition = nextTransition(track);
      if (!transition || transition.at > target) continue;
      if (!due || transition.at < due.transition.at) due = { track, transition };
    }
    if (!due) return steps;
    const { track, transition } = due;
    switch (transition.kind) {
      case 'expire':
        await expireIncomplete(db, track, transition.at);
        break;
      case 'retry':
        if (transition.invoice) await retryPayment(db, track, transition.invoice, transition.at);
        break;
      case 'overdue':
        if (transition.notice) await markOverdue(db, track, transition.notice, transition.at);
        break;
      case 'trial_will_end':
        await sendTrialNotice(db, track, transition.at);
        break;
      case 'period_end':
        await crossPeriodEnd(db, track);
        break;
    }
  }
  throw new Error('billing sandbox: too many periods in one advance');
}

/**
 * Brings every subscription of the clock's customers to `target`: period ends, trial ends
 * and their notices, payment retries and incomplete expiries, in time order across
 * subscriptions. The caller holds the clock's row; each subscription's row is taken here.
 */
export async function advanceClockSubscriptions(
  db: Db,
  clockId: string,
  target: number,
): Promise<void> {
  const customers = await findAllObjects(db, CUSTOMER_TYPE, [
    { field: 'test_clock', in: [clockId] },
  ]);
  if (customers.length === 0) return;
  const found = await findAllObjects(db, SUBSCRIPTION_TYPE, [
    { field: 'customer', in: customers.map((customer) => customer.id) },
    { field: 'status', in: TIMED_STATUSES },
  ]);
  const tracks: Track[] = [];
  for (const subscription of found) {
    const locked = await findObjectForUpdate(db, SUBSCRIPTION_TYPE, subscription.id);
    if (locked) tracks.push(await loadTrack(db, locked));
  }
  await runDue(db, tracks, target);
}

/**
 * Moves the subscriptions of customers without a test clock on to `now` (real time, given by
 * the caller's timer): whatever fell due — period ends, trial ends and their notices, payment
 * retries, incomplete expiries — happens at the time it was due, as a clock advance would do
 * it. One transaction per subscription; a subscription whose row another transaction holds
 * (another process's run, a request) is skipped and taken up on a later run, so runs in
 * several processes at once never do one thing twice. Answers how many subscriptions changed.
 */
export async function advanceClocklessSubscriptions(db: Db, now: number): Promise<number> {
  const clockless: FieldFilter = { field: 'test_clock', isNull: true };
  const due = new Set<string>();
  const ended = await findAllObjects(db, SUBSCRIPTION_TYPE, [
    clockless,
    { field: 'status', in: LIVE_STATUSES },
    { field: 'items.data.0.current_period_end', lte: now },
  ]);
  const expiring = await findAllObjects(db, SUBSCRIPTION_TYPE, [
    clockless,
    { field: 'status', in: ['incomplete'] },
    { field: 'created', lte: now - INCOMPLETE_EXPIRY_SECONDS },
  ]);
  for (const subscription of [...ended, ...expiring]) due.add(subscription.id);
  const retrying = await findAllObjects(db, INVOICE_TYPE, [
    clockless,
    { field: 'status', in: ['open'] },
    { field: 'next_payment_attempt', lte: now },
  ]);
  for (const invoice of retrying) {
    const id = subscriptionIdOf(invoice);
    if (id) due.add(id);
  }
  const notices = await findAllObjects(db, TRIAL_NOTICE_TYPE, [
    clockless,
    { field: 'sent_at', isNull: true },
    { field: 'due_at', lte: now },
  ]);
  for (const notice of notices) due.add(String(notice.subscription));
  const overdue = await findAllObjects(db, OVERDUE_NOTICE_TYPE, [
    clockless,
    { field: 'sent_at', isNull: true },
    { field: 'due_at', lte: now },
  ]);
  for (const notice of overdue) {
    if (typeof notice.subscription === 'string') due.add(notice.subscription);
  }

  let changed = 0;
  for (const id of due) {
    try {
      const steps = await db.transaction(async (tx) => {
        const locked = await findObjectForUpdate(tx, SUBSCRIPTION_TYPE, id, { skipLocked: true });
        if (!locked || locked.test_clock !== null) return 0;
        if (!TIMED_STATUSES.includes(String(locked.status))) return 0;
        return runDue(tx, [await loadTrack(tx, locked)], now);
      });
      if (steps > 0) changed++;
    } catch (error) {
      // One broken subscription must not stop the others on every run.
      console.error(`[billing-sandbox] could not move ${id} on:`, error);
    }
  }
  return changed;
}
