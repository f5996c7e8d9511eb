import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAdminCommand } from '@/server/features/admin/commands';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { subscriptions } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { signIn } from '@/server/features/account/account-flows';
import { appAuth } from '@/server/features/identity/app-auth';
import { findUserByEmail, setPartnerId } from '@/server/features/profiles/profiles';
import type { Viewer } from '@/lib/access/post-access';
import { currentViewer } from './current-viewer';
import { viewerFromHeaders } from './request-viewer';

/**
 * currentViewer against a real database and real sessions: users made as staff make them (the
 * admin CLI), plans as billing and the CLI store them, signed in through the app's sign-in flow.
 * Only the request is faked: next/headers answers the cookie of the reader under test.
 */

const request = vi.hoisted(() => ({ headers: new Headers(), reads: 0 }));
vi.mock('next/headers', () => ({
  headers: () => {
    request.reads++;
    return Promise.resolve(request.headers);
  },
}));

const PASSWORD = 'kumo-no-ue-no-sora';
const DAY = 86_400_000;

type Fixture = {
  role?: 'member' | 'editor' | 'admin';
  partner?: boolean;
  /** Complimentary plans granted with the admin CLI. */
  grant?: { status: 'active' | 'trialing'; days?: number };
  /** Then revoked with the admin CLI. */
  revoke?: boolean;
  /** Subscription rows as billing stores them (newest last here, created in this order). */
  rows?: {
    provider: 'stripe' | 'complimentary';
    status: string;
    cancelAtPeriodEnd?: boolean;
    currentPeriodEnd?: Date;
  }[];
};

const READERS = {
  free: {},
  'complimentary active': { grant: { status: 'active' } },
  'complimentary trialing': { grant: { status: 'trialing', days: 14 } },
  'complimentary revoked': { grant: { status: 'active' }, revoke: true },
  'complimentary past its term': {
    rows: [
      { provider: 'complimentary', status: 'active', currentPeriodEnd: new Date(Date.now() - DAY) },
    ],
  },
  'paid active': { rows: [{ provider: 'stripe', status: 'active' }] },
  'paid trialing': { rows: [{ provider: 'stripe', status: 'trialing' }] },
  'paid, cancelling at period end': {
    rows: [
      {
        provider: 'stripe',
        status: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: new Date(Date.now() + 10 * DAY),
      },
    ],
  },
  // The provider is retrying a failed renewal: access stays until it gives up
  // (docs/decisions/000-design-baseline.md "past_due").
  'past due': { rows: [{ provider: 'stripe', status: 'past_due' }] },
  'cancelled at a period end that has passed': {
    rows: [
      {
        provider: 'stripe',
        status: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: new Date(Date.now() - DAY),
      },
    ],
  },
  unpaid: { rows: [{ provider: 'stripe', status: 'unpaid' }] },
  canceled: { rows: [{ provider: 'stripe', status: 'canceled' }] },
  'canceled, then subscribed again': {
    rows: [
      { provider: 'stripe', status: 'canceled' },
      { provider: 'stripe', status: 'active' },
    ],
  },
  'partner free': { partner: true },
  'partner paid': { partner: true, grant: { status: 'active' } },
  editor: { role: 'editor' },
  admin: { role: 'admin' },
  'admin with a plan': { role: 'admin', grant: { status: 'active' } },
} satisfies Record<string, Fixture>;
type ReaderName = keyof typeof READERS;

const emailOf = (name: string) => `${name.replace(/[^a-z]+/g, '-')}@example.jp`;

describe('currentViewer', () => {
  let database: Database;
  const cookies = new Map<ReaderName, string>();
  let ipCounter = 0;

  const run = (name: string, args: Record<string, string>) =>
    runAdminCommand({ database, actor: 'cli:test' }, name, args);

  async function makeReader(name: ReaderName, fixture: Fixture): Promise<void> {
    const email = emailOf(name);
    await run('create-user', { email, password: PASSWORD, role: fixture.role ?? 'member' });
    const user = (await findUserByEmail(database.db, email))!;
    if (fixture.partner) await setPartnerId(database.db, user.id, 'partner-1');
    if (fixture.grant) {
      const { status, days } = fixture.grant;
      await run('grant-plan', {
        email,
        plan: 'monthly',
        status,
        ...(days ? { days: String(days) } : {}),
      });
    }
    if (fixture.revoke) await run('revoke-plan', { email });
    let created = Date.now() - 100 * DAY;
    for (const [i, row] of (fixture.rows ?? []).entries()) {
      created += DAY;
      await database.db.insert(subscriptions).values({
        id: `sub_${user.id}_${i}`,
        userId: user.id,
        provider: row.provider,
        status: row.status,
        cancelAtPeriodEnd: row.cancelAtPeriodEnd ?? false,
        planName: 'スタンダード',
        currentPeriodEnd: row.currentPeriodEnd ?? null,
        createdAt: new Date(created),
      });
    }
    const signedIn = await signIn(
      { db: database.db, auth: await appAuth() },
      { email, password: PASSWORD },
      { headers: new Headers(), ip: `192.0.2.${++ipCounter}` },
    );
    if (!signedIn.ok) throw new Error(`sign-in failed for ${email}`);
    cookies.set(name, (signedIn.setCookies ?? []).map((c) => c.split(';')[0]).join('; '));
  }

  beforeAll(async () => {
    // The session is signed as the site signs it; keep the secret out of ./.data.
    vi.stubEnv('APP_SECRET', 's'.repeat(40));
    database = await createTestDatabase();
    useDatabase(database); // what getDb() and appAuth() use
    for (const [name, fixture] of Object.entries(READERS) as [ReaderName, Fixture][])
      await makeReader(name, fixture);
  });
  afterAll(async () => {
    useDatabase(undefined);
    await database.close();
    vi.unstubAllEnvs();
  });

  const viewerWith = (cookie: string | null) => {
    request.headers = new Headers(cookie ? { cookie } : {});
    return currentViewer();
  };

  const FREE: Viewer = { kind: 'member', paid: false };
  const PAID: Viewer = { kind: 'member', paid: true };
  const STAFF: Viewer = { kind: 'staff' };

  it.each<[ReaderName, Viewer]>([
    ['free', FREE],
    ['complimentary active', PAID],
    ['complimentary trialing', PAID],
    ['complimentary revoked', FREE],
    ['complimentary past its term', FREE],
    ['paid active', PAID],
    ['paid trialing', PAID],
    ['paid, cancelling at period end', PAID],
    ['past due', PAID],
    ['cancelled at a period end that has passed', FREE],
    ['unpaid', FREE],
    ['canceled', FREE],
    ['canceled, then subscribed again', PAID],
    ['partner free', FREE],
    ['partner paid', PAID],
    ['editor', STAFF],
    ['admin', STAFF],
    ['admin with a plan', STAFF],
  ])('a signed-in %s reader is %o', async (name, viewer) => {
    expect(await viewerWith(cookies.get(name)!)).toEqual(viewer);
  });

  it('is anonymous without a session, or with a session cookie that is not valid', async () => {
    expect(await viewerWith(null)).toEqual({ kind: 'anonymous' });
    const forged = cookies.get('paid active')!.replace(/=([^.;]+)/, '=forged$1');
    expect(await viewerWith(forged)).toEqual({ kind: 'anonymous' });
  });

  it('follows the plan as it changes, on the next request', async () => {
    const email = emailOf('free');
    const cookie = cookies.get('free')!;
    await run('grant-plan', { email, plan: 'monthly' });
    expect(await viewerWith(cookie)).toEqual(PAID);
    await run('revoke-plan', { email });
    expect(await viewerWith(cookie)).toEqual(FREE);
  });

  it('follows a role change on the next request', async () => {
    const email = emailOf('partner free');
    const cookie = cookies.get('partner free')!;
    await run('set-role', { email, role: 'editor' });
    expect(await viewerWith(cookie)).toEqual(STAFF);
    await run('set-role', { email, role: 'member' });
    expect(await viewerWith(cookie)).toEqual(FREE);
  });

  it('is the same from request headers (the front server) as for the page', async () => {
    for (const name of ['free', 'paid active', 'past due', 'admin'] as const)
      expect(await viewerFromHeaders(new Headers({ cookie: cookies.get(name)! }))).toEqual(
        await viewerWith(cookies.get(name)!),
      );
  });
});
