import { describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { isSandboxAuthorization } from '@/server/billing/sandbox/secret-key';
import { UsageError } from './command';
import { runAdminCommand } from './commands';

describe('billing admin commands (sandbox)', () => {
  const database = testDatabase({ global: false });
  const ctx = () => ({ database, actor: 'cli:test' });

  it('prints the sandbox key alone on the last line, the same each time', async () => {
    const first = (await runAdminCommand(ctx(), 'billing-sandbox-key', {})).at(-1)!;
    expect(first).toMatch(/^sk_test_[0-9a-f]{48}$/);
    expect((await runAdminCommand(ctx(), 'billing-sandbox-key', {})).at(-1)).toBe(first);
    expect(await isSandboxAuthorization(database.db, `Bearer ${first}`)).toBe(true);
  });

  it('syncs the plans, and refuses a reader who is not there', async () => {
    const plans = await runAdminCommand(ctx(), 'billing-sync-plans', {});
    expect(plans).toHaveLength(2);
    expect(plans[0]).toMatch(/^monthly: .+ ¥1,100\/month\s+price_/);
    expect(plans[1]).toMatch(/^yearly: .+ ¥11,000\/year\s+price_/);
    await expect(
      runAdminCommand(ctx(), 'billing-advance', { email: 'nobody@example.jp', days: '3' }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(
      runAdminCommand(ctx(), 'billing-advance', { email: 'nobody@example.jp', days: '-1' }),
    ).rejects.toThrow(/--days/);
  });
});
