import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { user } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { recordAudit } from './audit-log';
import {
  AUDIT_PAGE_SIZE,
  auditActions,
  listAuditPage,
  recentAuditFor,
  userEmailsFor,
} from './audit-query';

/** The audit log screen's reads: pages, filters, and actors' addresses. */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  useDatabase(database);
  const { db } = database;
  await db.insert(user).values({ id: 'a1', name: 'a1', email: 'admin@example.jp', role: 'admin' });
  // 60 sign-ins, then 3 role changes by the admin, the last one the newest.
  for (let i = 0; i < 60; i++)
    await recordAudit(db, { actor: `user:m${i}`, action: 'sign-in', target: `user:m${i}` });
  for (let i = 0; i < 3; i++) {
    // Apart in time: the database clock may give two quick inserts the same instant.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await recordAudit(db, {
      actor: 'user:a1',
      action: 'role-changed',
      target: 'user:m7',
      ip: '192.0.2.1',
      detail: { n: i },
    });
  }
});

afterAll(async () => {
  useDatabase(undefined);
  await database.close();
});

describe('listAuditPage', () => {
  it('pages newest first', async () => {
    const first = await listAuditPage(database.db, { page: 1 });
    expect(first.total).toBe(63);
    expect(first.pageCount).toBe(2);
    expect(first.items).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.items[0]).toMatchObject({ action: 'role-changed', detail: { n: 2 } });
    const second = await listAuditPage(database.db, { page: 2 });
    expect(second.items).toHaveLength(13);
    const ids = new Set([...first.items, ...second.items].map((i) => i.id));
    expect(ids.size).toBe(63);
    // Past the end: the last page.
    expect((await listAuditPage(database.db, { page: 50 })).page).toBe(2);
  });

  it('filters by action and by text in the actor or the target', async () => {
    expect((await listAuditPage(database.db, { page: 1, action: 'role-changed' })).total).toBe(3);
    // m7 was the target of the role changes and the actor and target of a sign-in.
    expect((await listAuditPage(database.db, { page: 1, q: 'user:m7' })).total).toBe(4);
    expect(
      (await listAuditPage(database.db, { page: 1, q: 'user:m7', action: 'sign-in' })).total,
    ).toBe(1);
    // A wildcard typed is a literal character.
    expect((await listAuditPage(database.db, { page: 1, q: '%' })).total).toBe(0);
  });
});

describe('the rest', () => {
  it('lists the actions present, the events done to one user, and resolves users', async () => {
    expect(await auditActions(database.db)).toEqual(['role-changed', 'sign-in']);
    const recent = await recentAuditFor(database.db, 'user:m7', 2);
    expect(recent.map((r) => r.detail)).toEqual([{ n: 2 }, { n: 1 }]);
    const emails = await userEmailsFor(database.db, ['user:a1', 'user:gone', 'cli:root', null]);
    expect([...emails]).toEqual([['user:a1', 'admin@example.jp']]);
  });
});
