import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAdminCommand } from '@/server/features/admin/commands';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { findUserByEmail } from '@/server/features/profiles/profiles';
import type { AppUser } from '@/server/features/identity/session-user';
import { createTestDatabase } from '@test-support/db/test-database';
import { bandNotice } from './billing-notice-banner';

/**
 * The site-wide band's notice, on a real database: a reader's plan that has just ended is told
 * on their next page; a staff member's pages carry no band, and are rendered without reading
 * plans at all (docs/decisions/057-staff-render-queries.md): staff read everything, on no plan.
 */

let database: Database;

/** An account whose only plan has just ended: a notice to be told, for a reader. */
async function accountWithEndedPlan(email: string, role: AppUser['role']): Promise<AppUser> {
  const run = (name: string, args: Record<string, string>) =>
    runAdminCommand({ database, actor: 'cli:test' }, name, args);
  await run('create-user', { email, password: 'kumo-no-ue-no-sora', role });
  await run('grant-plan', { email, plan: 'monthly' });
  await run('revoke-plan', { email });
  const found = (await findUserByEmail(database.db, email))!;
  return { id: found.id, email, name: email, role, emailVerified: true };
}

beforeAll(async () => {
  database = await createTestDatabase();
  useDatabase(database);
});
afterAll(async () => {
  useDatabase(undefined);
  await database.close();
});

describe('bandNotice', () => {
  it('tells a reader that their plan ended', async () => {
    const reader = await accountWithEndedPlan('reader@example.jp', 'member');
    expect(await bandNotice(reader)).toMatchObject({ kind: 'plan_ended' });
  });

  it.each(['editor', 'admin'] as const)(
    'reads nothing for an %s, and shows no band',
    async (role) => {
      const staff = await accountWithEndedPlan(`${role}@example.jp`, role);
      const client = (database.db as unknown as { $client: { query: () => unknown } }).$client;
      const queries = vi.spyOn(client, 'query');
      try {
        expect(await bandNotice(staff)).toBeNull();
        expect(queries).not.toHaveBeenCalled();
      } finally {
        queries.mockRestore();
      }
    },
  );

  it('shows nothing when signed out', async () => {
    expect(await bandNotice(null)).toBeNull();
  });
});
