import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseFingerprint } from '@test-support/database-fingerprint';
import { findEndpoint } from '@/lib/cms/model';
import type { Database } from '@/server/platform/db/client';
import { auditsOf, testDatabase, testWorkDir } from '@test-support/route-tests';
import { getStorage } from '@/server/platform/storage/storage';
import { sample } from '@test-support/media-samples';
import { UsageError } from './command';
import { helpText, runAdminCommand } from './commands';
import { brokenArchives } from '@test-support/broken-archives';
import { localBackupArgs, restoreWhileServing } from './backup-commands';
import { createContent } from '@/server/services/cms/writes';

const tmp = testWorkDir('backup-commands');

describe('backup and restore on the command line', () => {
  const source = testDatabase({ global: false });
  const target = testDatabase({ global: false });
  const file = path.join(tmp, 'site.tar.gz');
  const cli = (database: Database) => ({ database, actor: 'cli:test' });

  beforeAll(async () => {
    await createContent(source.db, findEndpoint('tags')!, {
      id: 'tag-1',
      body: { name: '建築' },
      status: 'publish',
    });
    await runAdminCommand(cli(source), 'create-user', {
      email: 'editor@example.jp',
      password: 'kumo-no-ue-no-sora-2026',
      role: 'editor',
    });
    await getStorage().put(
      'images/2026/05/aaaabbbbccccddddaaaabbbbccccdddd.png',
      sample('png'),
      'image/png',
    );
  });

  it('is listed in the help', () => {
    const help = helpText().join('\n');
    expect(help).toContain('npm run admin -- backup --out FILE.tar.gz');
    expect(help).toContain('npm run admin -- restore --file FILE.tar.gz');
  });

  it('writes a private backup, says what it holds and what to keep apart, and audits it', async () => {
    const lines = await runAdminCommand(cli(source), 'backup', { out: file });
    expect(lines[0]).toMatch(/^バックアップを書き出しました: .*site\.tar\.gz \(\d+\.\d MB\)$/);
    expect(lines[1]).toMatch(
      /^テーブル \d+ \/ 行 \d+ \/ メディアファイル 1 件 .* \/ マイグレーション \d+ 件 \(最後は \d{4}_\w+\)$/,
    );
    expect(lines.join('\n')).toContain('パスワードのハッシュ');
    expect(lines.join('\n')).toContain('(0600)');
    expect(lines.join('\n')).toContain('APP_SECRET');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const [audit] = await auditsOf(source, 'backup-created');
    expect(audit).toMatchObject({ actor: 'cli:test', detail: { file, files: 1 } });
  });

  it('refuses a relative path, an existing file, and a missing one, before doing anything', async () => {
    await expect(
      runAdminCommand(cli(source), 'backup', { out: 'relative.tar.gz' }),
    ).rejects.toThrow(/絶対パス/);
    await expect(runAdminCommand(cli(source), 'backup', { out: file })).rejects.toThrow(UsageError);
    await expect(
      runAdminCommand(cli(target), 'restore', { file: path.join(tmp, 'none.tar.gz') }),
    ).rejects.toThrow(/が見つかりません/);
    expect(await auditsOf(target, 'backup-restored')).toEqual([]);
  });

  it('refuses a backup cut short or damaged, saying so, and keeps nothing of it', async () => {
    const before = await databaseFingerprint(target.db);
    for (const broken of brokenArchives(file))
      await expect(
        runAdminCommand(cli(target), 'restore', { file: broken.file }),
        broken.file,
      ).rejects.toThrow(broken.says);
    expect(await databaseFingerprint(target.db)).toEqual(before);
    expect(await auditsOf(target, 'backup-restored')).toEqual([]);
  });

  it('restores into an empty instance with the same rows, audited there', async () => {
    const lines = await runAdminCommand(cli(target), 'restore', { file });
    expect(lines[0]).toMatch(
      /^復元しました: site\.tar\.gz \(作成 .*、アプリ .*、(embedded|postgres) から\)$/,
    );
    expect(lines[2]).toBe('この環境の内容: ユーザー 1 人、タグ 1 件');
    expect(lines[3]).toContain('APP_SECRET');
    const skip = { skipAuditActions: ['backup-created', 'backup-restored'] };
    expect(await databaseFingerprint(target.db, skip)).toEqual(
      await databaseFingerprint(source.db, skip),
    );
    const [audit] = await auditsOf(target, 'backup-restored');
    expect(audit).toMatchObject({ actor: 'cli:test', detail: { file: 'site.tar.gz' } });
  });

  it('refuses to restore into an instance with data, naming it', async () => {
    await expect(runAdminCommand(cli(source), 'restore', { file })).rejects.toThrow(
      'この環境にはすでにデータがあるため復元できません（ユーザー 1 人、タグ 1 件）。',
    );
  });

  it('resolves paths in the CLI process and explains why a running site is not restored into', () => {
    expect(localBackupArgs('backup', { out: 'b.tar.gz' }).out).toBe(path.resolve('b.tar.gz'));
    expect(localBackupArgs('restore', { file: 'b.tar.gz' }).file).toBe(path.resolve('b.tar.gz'));
    expect(localBackupArgs('db-status', { out: 'b.tar.gz' }).out).toBe('b.tar.gz');
    expect(restoreWhileServing('/srv/data')).toMatch(
      /^データディレクトリ \/srv\/data は稼働中のサイトが使用しているため、復元できません。サイトを止め/,
    );
  });
});
