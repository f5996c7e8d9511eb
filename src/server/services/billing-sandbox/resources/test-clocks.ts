import 'server-only';
import { advanceClockSubscriptions } from '../cycle/clock';
import { expireKonbiniPayments } from '../cycle/konbini';
import { invalidRequest, missingParam } from '../errors';
import {
  type SandboxObject,
  insertObject,
  newObjectId,
  nowSeconds,
  requireObject,
  saveObject,
} from '../object-store';
import type { Params } from '../params';
import { type Route, type RouteContext, changeLocked, resourceRoutes } from './route';

/**
 * /v1/test_helpers/test_clocks. Stripe advances a clock asynchronously (status `advancing`,
 * then `ready`); the sandbox does the work within the request and answers the clock already
 * `ready` at its new time, which a client polling for `ready` accepts at once. Advancing moves
 * every subscription of the clock's customers through what it passes, in time order (trial
 * ends and their notices, renewals with their invoices and charges, payment retries and the
 * cancellation after the last, incomplete expiries, cancellations at period end) and expires
 * their konbini vouchers past their deadline, all in one transaction: a failure leaves the
 * clock and its subscriptions where they were.
 */

export const TEST_CLOCK_TYPE = 'test_helpers.test_clock';
/** Stripe deletes a test clock 30 days after it was made. */
const LIFETIME_SECONDS = 30 * 24 * 60 * 60;
const MAX_TIME = 253_402_300_799; // 9999-12-31
/** Stripe's name for a test clock in its errors. */
const NAMING = { kind: 'test_clock' };

export async function requireTestClock(
  context: RouteContext,
  id: string,
  param = 'id',
): Promise<SandboxObject> {
  return requireObject(context.db, TEST_CLOCK_TYPE, id, { ...NAMING, param });
}

function readFrozenTime(params: Params): number {
  const frozenTime = params.integer('frozen_time', 0, MAX_TIME);
  if (frozenTime === undefined) throw missingParam('frozen_time');
  return frozenTime;
}

async function create({ db, params }: RouteContext): Promise<SandboxObject> {
  const frozenTime = readFrozenTime(params);
  const name = params.string('name', 300) ?? null;
  params.finish();
  const created = nowSeconds();
  const clock: SandboxObject = {
    id: newObjectId('clock'),
    object: TEST_CLOCK_TYPE,
    created,
    deletes_after: created + LIFETIME_SECONDS,
    frozen_time: frozenTime,
    livemode: false,
    name,
    status: 'ready',
    status_details: {},
  };
  await insertObject(db, TEST_CLOCK_TYPE, clock);
  return clock;
}

async function advance(context: RouteContext): Promise<SandboxObject> {
  const { params } = context;
  const frozenTime = readFrozenTime(params);
  params.finish();
  // The clock's row stays locked until the end: advances of one clock run one at a time.
  return changeLocked(
    context,
    TEST_CLOCK_TYPE,
    async (db, clock) => {
      if (frozenTime <= (clock.frozen_time as number)) {
        throw invalidRequest(
          'The frozen_time must be after the current frozen_time of the test clock.',
          'frozen_time',
        );
      }
      await advanceClockSubscriptions(db, clock.id, frozenTime);
      await expireKonbiniPayments(db, frozenTime, clock.id);
      const next: SandboxObject = {
        ...clock,
        frozen_time: frozenTime,
        status: 'ready',
        status_details: {},
      };
      await saveObject(db, next);
      return next;
    },
    NAMING,
  );
}

export const testClockRoutes: Route[] = [
  ...resourceRoutes(['test_helpers', 'test_clocks'], TEST_CLOCK_TYPE, { ...NAMING, create }),
  { method: 'POST', pattern: ['test_helpers', 'test_clocks', ':id', 'advance'], handle: advance },
];
