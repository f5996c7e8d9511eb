import { describe, expect, it } from 'vitest';
import { billingProvider } from '@/server/features/billing/provider';
import { listOffers } from '@/server/features/billing/offer-console';
import { offersHandlers } from './offers-http';
import {
  NOT_ADMINS,
  type PostOptions,
  auditsOf as auditsOfAction,
  doneFlash,
  expectBare404,
  formPost,
  roleRouteTests,
} from '@test-support/route-tests';

/**
 * The routes of /admin/offers on a real database and the billing sandbox: only admins create
 * (a coupon and its promotion code, audited) and deactivate; anyone else gets the bare 404 and
 * changes nothing; bad input and a code in use get field errors and make nothing.
 */

const { users, viewer, database } = roleRouteTests('admin-offers-http', { prefix: 'o-' });
type Who = keyof typeof users;
const routes = offersHandlers({ viewer });

type Call = PostOptions<Who>;
const create = (call: Call) => routes.create(formPost('/api/admin/offers', call));
const deactivate = (id: string, call: Call) =>
  routes.deactivate(formPost(`/api/admin/offers/${id}/deactivate`, call), id);
const auditsOf = (action: string) => auditsOfAction(database, action);

const HALF_OFF = {
  name: '初月半額',
  kind: 'percent',
  value: '50',
  duration: 'once',
  months: '',
  code: 'welcome-half',
  expires: '2099-12-31',
  cap: '100',
  firstTime: 'on',
  plan_monthly: 'on',
};

const couponCount = async () =>
  (await (await billingProvider(database.db)).stripe.coupons.list({ limit: 100 })).data.length;

describe('/admin/offers routes', () => {
  it('creates an offer as a coupon and a promotion code, audited, and lists it', async () => {
    const made = await create({ who: 'admin', plain: true, fields: HALF_OFF });
    expect(made.status).toBe(303);
    expect(doneFlash(made)).toContain('オファー「初月半額」（コード WELCOME-HALF）を作成しました');
    const [offer] = await listOffers(database.db);
    expect(offer).toMatchObject({
      code: 'WELCOME-HALF',
      name: '初月半額',
      active: true,
      kind: 'percent',
      value: 50,
      duration: 'once',
      redeemed: 0,
      cap: 100,
      firstTime: true,
      plans: ['monthly'],
    });
    // The end of the day in Japan.
    expect(offer!.expiresAt?.toISOString()).toBe('2099-12-31T14:59:59.000Z');
    const [audit] = await auditsOf('offer-created');
    expect(audit).toMatchObject({
      actor: `user:${users.admin.id}`,
      target: `promotion_code:${offer!.id}`,
    });
  });

  it('refuses a code in use and bad input with Japanese errors, making nothing', async () => {
    const before = await couponCount();
    const taken = await create({ who: 'admin', fields: { ...HALF_OFF, code: 'Welcome-Half' } });
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as { fieldErrors: Record<string, string> }).fieldErrors).toEqual({
      code: 'このコードはすでに使われています',
    });
    for (const [field, bad] of [
      ['name', ''],
      ['kind', 'free'],
      ['value', '150'],
      ['duration', 'repeating'],
      ['code', 'コード'],
      ['expires', '2020-01-01'],
      ['cap', '0'],
      ['plan_monthly', undefined],
    ] as const) {
      const fields: Record<string, string> = { ...HALF_OFF, code: 'OTHER' };
      if (bad === undefined) delete fields[field];
      else fields[field] = bad;
      const response = await create({ who: 'admin', fields });
      expect(response.status, field).toBe(400);
      const body = (await response.json()) as { fieldErrors: Record<string, string> };
      expect(Object.keys(body.fieldErrors), field).toEqual([
        field === 'duration' ? 'months' : field === 'plan_monthly' ? 'plans' : field,
      ]);
    }
    expect(await couponCount()).toBe(before);
    expect(await auditsOf('offer-created')).toHaveLength(1);
  });

  it('refuses an expiry day that does not exist, in Japanese, making nothing', async () => {
    const before = await couponCount();
    for (const expires of ['2026-13-45', '2099-02-30', '2099-04-31', '2099-00-10']) {
      const response = await create({
        who: 'admin',
        fields: { ...HALF_OFF, code: 'NO-DAY', expires },
      });
      expect(response.status, expires).toBe(400);
      expect(await response.json(), expires).toMatchObject({
        ok: false,
        fieldErrors: {
          expires: '有効期限は 2027-03-31 の形式で、実在する日付を入力してください。',
        },
      });
    }
    expect(await couponCount()).toBe(before);
    expect((await listOffers(database.db)).map((o) => o.code)).not.toContain('NO-DAY');
    expect(await auditsOf('offer-created')).toHaveLength(1);
  });

  it.each(NOT_ADMINS)('gives a bare 404 to anyone but an admin (%s)', async (who) => {
    const [offer] = await listOffers(database.db);
    for (const plain of [false, true]) {
      expectBare404(await create({ who, plain, fields: { ...HALF_OFF, code: 'NOPE' } }));
      expectBare404(await deactivate(offer!.id, { who, plain }));
    }
    expect((await listOffers(database.db)).map((o) => [o.code, o.active])).toEqual([
      ['WELCOME-HALF', true],
    ]);
  });

  it('deactivates a code, audited; an unknown id is a 404', async () => {
    const [offer] = await listOffers(database.db);
    const done = await deactivate(offer!.id, { who: 'admin', plain: true });
    expect(doneFlash(done)).toContain('コード WELCOME-HALF を無効にしました');
    expect((await listOffers(database.db))[0]?.active).toBe(false);
    expect(await auditsOf('offer-deactivated')).toHaveLength(1);
    expectBare404(await deactivate('promo_unknown', { who: 'admin' }));
    expectBare404(await deactivate('../x', { who: 'admin' }));
  });
});
