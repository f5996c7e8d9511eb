import { describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { auditEvents, user } from '@/server/platform/db/schema';
import { isOrganizationAdmin, organizationById } from '@/server/features/organizations';
import { parseArgv } from '@/lib/admin/argv';
import { UsageError } from './command';
import { runAdminCommand } from './commands';

describe('organisation admin commands', () => {
  const database = testDatabase({ global: false });
  const ctx = () => ({ database, actor: 'cli:test' });
  const run = (line: string[]) => {
    const { command, args } = parseArgv(line);
    return runAdminCommand(ctx(), command!, args);
  };

  it('org-create prints the new id last; org-set-admin names an admin; both audited', async () => {
    const lines = await run([
      'org-create',
      '--name',
      '株式会社デザイン',
      '--seats',
      '20',
      '--domain',
      'Design.Example',
      '--domain',
      'design.example.jp',
      '--billing',
      'invoice',
    ]);
    const id = lines.at(-1)!;
    const org = await organizationById(database.db, id);
    expect(org).toMatchObject({
      name: '株式会社デザイン',
      addressee: '株式会社デザイン 御中',
      seats: 20,
      billing: 'invoice',
      planKey: 'yearly',
      domains: ['design.example', 'design.example.jp'],
      // Its customer at the provider; no subscription here, the catalogue having no such plan.
      providerCustomerId: expect.stringMatching(/^cus_/) as string,
      providerSubscriptionId: null,
    });
    expect(lines.at(-2)).toContain('請求を始められませんでした');
    await database.db
      .insert(user)
      .values({ id: 'hr', name: '人事', email: 'hr@design.example', emailVerified: true });
    expect(await run(['org-set-admin', '--org', id, '--email', 'HR@design.example'])).toEqual([
      'hr@design.example を「株式会社デザイン」の管理者にしました。',
    ]);
    expect(await isOrganizationAdmin(database.db, id, 'hr')).toBe(true);
    const actions = (await database.db.select().from(auditEvents)).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining(['organization-created', 'organization-admin-set']),
    );
  });

  it('refuses bad input, a domain another organisation has, and an unknown organisation', async () => {
    const create = (extra: string[]) =>
      run(['org-create', '--name', 'X社', '--seats', '3', '--billing', 'card', ...extra]);
    await expect(create(['--domain', 'evil..example'])).rejects.toThrow(/ドメインではありません/);
    await expect(create(['--domain', 'design.example'])).rejects.toThrow(/すでに/);
    await expect(
      run(['org-create', '--name', 'Y', '--seats', '0', '--billing', 'card']),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      run(['org-create', '--name', 'Y', '--seats', '2', '--billing', 'cash']),
    ).rejects.toThrow(/支払い方法/);
    await expect(
      run(['org-set-admin', '--org', 'nope', '--email', 'hr@design.example']),
    ).rejects.toThrow(/法人はありません/);
  });
});
