import { describe, expect, it } from 'vitest';
import { readMeteredAllowance } from '@/server/features/metered';
import { SETTINGS_FORM_KEY, settingsHandlers } from './settings-http';
import {
  NOT_ADMINS,
  type PostOptions,
  auditsOf as auditsOfAction,
  doneFlash,
  expectBare404,
  flashOf,
  formPost,
  roleRouteTests,
} from '@test-support/route-tests';

/**
 * The route of /admin/settings on a real database: only an admin changes the metered wall's
 * allowance (docs/decisions/055-metered-wall.md), audited with the old and new value; anyone
 * else gets the bare 404 and changes nothing; a value that is not 0–100 is refused in Japanese.
 */

const { users, viewer, database } = roleRouteTests('admin-settings-http', { prefix: 's-' });
type Who = keyof typeof users;
const routes = settingsHandlers({ viewer });
const update = (call: PostOptions<Who>) => routes.update(formPost('/api/admin/settings', call));
const audits = () => auditsOfAction(database, 'setting-changed');

describe('/admin/settings route', () => {
  it('an admin sets the allowance, audited with the old and new value', async () => {
    expect(await readMeteredAllowance(database.db)).toBe(0);
    const done = await update({ who: 'admin', plain: true, fields: { meteredReadsPerMonth: '3' } });
    expect(done.status).toBe(303);
    expect(doneFlash(done)).toContain('毎月読める会員限定記事を3本にしました');
    expect(await readMeteredAllowance(database.db)).toBe(3);
    const [audit] = await audits();
    expect(audit).toMatchObject({
      actor: `user:${users.admin.id}`,
      target: 'setting:metered_reads_per_month',
      detail: { from: 0, to: 3 },
    });
    const off = await update({ who: 'admin', plain: true, fields: { meteredReadsPerMonth: '0' } });
    expect(doneFlash(off)).toContain('オフ');
    // Without JavaScript: back to the page, the error and what was typed beside the field.
    const plain = await update({
      who: 'admin',
      plain: true,
      fields: { formKey: SETTINGS_FORM_KEY, meteredReadsPerMonth: '101' },
    });
    expect(plain.status).toBe(303);
    expect(flashOf(plain)).toMatchObject({
      fieldErrors: { meteredReadsPerMonth: '0〜100 の整数で入力してください' },
      values: { formKey: SETTINGS_FORM_KEY, meteredReadsPerMonth: '101' },
    });
    expect(await readMeteredAllowance(database.db)).toBe(0);
    expect(await audits()).toHaveLength(2);
  });

  it('refuses what is not 0–100 in Japanese, changing nothing', async () => {
    for (const bad of ['', '-1', '101', '1.5', '３', 'abc', '1000']) {
      const response = await update({ who: 'admin', fields: { meteredReadsPerMonth: bad } });
      expect(response.status, bad).toBe(400);
      expect(await response.json(), bad).toMatchObject({
        fieldErrors: { meteredReadsPerMonth: '0〜100 の整数で入力してください' },
      });
    }
    // Without JavaScript: back to the page, the error and what was typed beside the field.
    const plain = await update({
      who: 'admin',
      plain: true,
      fields: { formKey: SETTINGS_FORM_KEY, meteredReadsPerMonth: '101' },
    });
    expect(plain.status).toBe(303);
    expect(flashOf(plain)).toMatchObject({
      fieldErrors: { meteredReadsPerMonth: '0〜100 の整数で入力してください' },
      values: { formKey: SETTINGS_FORM_KEY, meteredReadsPerMonth: '101' },
    });
    expect(await readMeteredAllowance(database.db)).toBe(0);
    expect(await audits()).toHaveLength(2);
  });

  it.each(NOT_ADMINS)('gives a bare 404 to anyone but an admin (%s)', async (who) => {
    for (const plain of [false, true])
      expectBare404(await update({ who, plain, fields: { meteredReadsPerMonth: '50' } }));
    expect(await readMeteredAllowance(database.db)).toBe(0);
  });
});
