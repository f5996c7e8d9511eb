import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '@/server/audit/audit-log';
import type { Database } from '@/server/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { UsageError } from './command';
import { helpText, runAdminCommand } from './commands';

describe('admin commands', () => {
  let database: Database;
  const ctx = () => ({ database, actor: 'cli:test' });
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('lists every command in the help', () => {
    const help = helpText().join('\n');
    expect(help).toContain('db-status');
    expect(help).toContain('audit-log');
  });

  it('reports the database it works on', async () => {
    const lines = await runAdminCommand(ctx(), 'db-status', {});
    expect(lines[0]).toMatch(/^database: (embedded|postgres)/);
    expect(lines.find((l) => l.startsWith('tables: '))).toMatch(/^tables: [1-9]\d*$/);
  });

  it('shows the audit log newest first', async () => {
    expect(await runAdminCommand(ctx(), 'audit-log', {})).toEqual(['監査ログはまだありません。']);
    await recordAudit(database.db, { actor: 'user:1', action: 'auth.sign_in', ip: '127.0.0.1' });
    await new Promise((r) => setTimeout(r, 5));
    await recordAudit(database.db, {
      actor: 'cli:test',
      action: 'user.set_role',
      target: 'user:1',
      detail: { role: 'editor' },
    });
    const lines = await runAdminCommand(ctx(), 'audit-log', { limit: '1' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('user.set_role');
    expect(lines[0]).toContain('target=user:1');
    expect(lines[0]).toContain('{"role":"editor"}');
  });

  it('rejects unknown commands, unknown flags and bad values before doing anything', async () => {
    await expect(runAdminCommand(ctx(), 'drop-everything', {})).rejects.toBeInstanceOf(UsageError);
    await expect(runAdminCommand(ctx(), 'db-status', { force: true })).rejects.toThrow('--force');
    await expect(runAdminCommand(ctx(), 'audit-log', { limit: 'many' })).rejects.toThrow(/--limit/);
  });
});
