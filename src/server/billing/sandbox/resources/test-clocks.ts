import 'server-only';
import { advanceClockSubscriptions } from '../cycle/clock';
import { invalidRequest, resourceMissing } from '../errors';
import { listAnswer } from '../list';
import {
  type SandboxObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  nowSeconds,
  saveObject,
  requireObject,
} from '../object-store';
import type { Route, RouteContext } from './route';

/**
 * /v1/test_helpers/test_clocks. Stripe advances a clock asynchronously (status `advancing`,
 * then `ready`); the sandbox does the work within the request and answers the clock already
 * `ready` at its new time, which a client polling for `ready` accepts at once. Advancing moves
 * every subscription of the clock's customers through what it passes, in time order (trial
 * ends and their notices, renewals with their invoices and charges, payment retries and the
 * cancellation after the last, incomplete expiries, cancellations at period end), all in one
 * transaction: a failure leaves the clock and its subscriptions where they were.
 */

export const TEST_CLOCK_TYPE = 'test_helpers.test_clock';
/** Stripe deletes a test clock 30 days after it was made. */
const LIFETIME_SECONDS = 30 * 24 * 60 * 60;
const MAX_TIME = 253_402_300_799; // 9999-12-31

export async function requireTestClock(
  context: RouteContext,
  id: string,
  param = 'id',
): Promise<SandboxObject> {
  return requireObject(context.db, TEST_CLOCK_TYPE, id, { param, kind: 'test_clock' });
}

async function create({ db, params }: RouteContext): Promise<SandboxObject> {
  const frozenTime = params.integer('frozen_time', 0, MAX_TIME);
  if (frozenTime === undefined)
    throw invalidRequest(
      'Missing required param: frozen_time.',
      'frozen_time',
      'parameter_missing',
    );
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
  const frozenTime = params.integer('frozen_time', 0, MAX_TIME);
  if (frozenTime === undefined)
    throw invalidRequest(
      'Missing required param: frozen_time.',
      'frozen_time',
      'parameter_missing',
    );
  params.finish();
  const id = context.id ?? '';
  return context.db.transaction(async (db) => {
    // The clock's row stays locked until the end: advances of one clock run one at a time.
    const clock = await findObjectForUpdate(db, TEST_CLOCK_TYPE, id);
    if (!clock) throw resourceMissing('test_clock', id);
    if (frozenTime <= (clock.frozen_time as number)) {
      throw invalidRequest(
        'The frozen_time must be after the current frozen_time of the test clock.',
        'frozen_time',
      );
    }
    await advanceClockSubscriptions(db, id, frozenTime);
    const next: SandboxObject = {
      ...clock,
      frozen_time: frozenTime,
      status: 'ready',
      status_details: {},
    };
    await saveObject(db, next);
    return next;
  });
}

export const testClockRoutes: Route[] = [
  { method: 'POST', pattern: ['test_helpers', 'test_clocks'], handle: create },
  {
    method: 'GET',
    pattern: ['test_helpers', 'test_clocks'],
    handle: async ({ db, params, path }) => {
      const answer = await listAnswer(db, TEST_CLOCK_TYPE, 'test_clock', params, path, []);
      params.finish();
      return answer;
    },
  },
  {
    method: 'GET',
    pattern: ['test_helpers', 'test_clocks', ':id'],
    handle: async (context) => {
      context.params.finish();
      return requireTestClock(context, context.id ?? '');
    },
  },
  { method: 'POST', pattern: ['test_helpers', 'test_clocks', ':id', 'advance'], handle: advance },
];
