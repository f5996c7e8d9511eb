import { describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { findEndpoint } from '@/lib/cms/model';
import { getContent } from '@/server/services/cms/store';
import { ROLES } from '@/lib/identity/roles';
import { UsageError } from './command';
import { helpText, runAdminCommand } from './commands';
import { SYSTEM_WRITE, createContent, scheduleContent } from '@/server/services/cms/writes';

describe('admin commands', () => {
  const database = testDatabase({ global: false });
  const ctx = () => ({ database, actor: 'cli:test' });

  it('lists every command in the help', () => {
    const help = helpText().join('\n');
    expect(help).toContain('db-status');
    expect(help).toContain('audit-log');
  });

  it('names every role the role commands accept, in their summary and usage', () => {
    const help = helpText();
    for (const command of ['set-role', 'create-user']) {
      const lines = help.filter((line) =>
        new RegExp(`^ +(npm run admin -- )?${command} `).test(line),
      );
      expect(lines, command).toHaveLength(2); // the summary and the example
      const usage = lines.find((line) => line.includes('npm run admin'))!;
      expect(usage, command).toContain(`--role ${ROLES.join('|')}`);
    }
    const summary = help.find((line) => /^ +set-role /.test(line))!;
    for (const role of ROLES) expect(summary).toContain(role);
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

  it('runs the scheduled publishing as of a given time, so no one waits for the clock', async () => {
    const posts = findEndpoint('posts')!;
    const { id } = await createContent(database.db, posts, {
      body: { title: '予約の記事' },
      status: 'draft',
    });
    const at = new Date(Date.now() + 3_600_000);
    await scheduleContent(database.db, posts, id, at, SYSTEM_WRITE);
    const before = new Date(at.getTime() - 1000).toISOString();
    expect(await runAdminCommand(ctx(), 'run-scheduled', { at: before })).toEqual([
      `${before} までの予約公開を実行しました: 0 件を公開しました。`,
    ]);
    expect(await runAdminCommand(ctx(), 'run-scheduled', { at: at.toISOString() })).toEqual([
      `${at.toISOString()} までの予約公開を実行しました: 1 件を公開しました。`,
    ]);
    const published = await getContent(database.db, posts, id, { depth: 0 }, { kind: 'published' });
    expect(published.publishedAt).toBe(at.toISOString());
    expect((await runAdminCommand(ctx(), 'audit-log', { limit: '1' }))[0]).toContain(
      'scheduled-run',
    );
    await expect(runAdminCommand(ctx(), 'run-scheduled', { at: 'tomorrow' })).rejects.toThrow(
      /--at/,
    );
  });
});
