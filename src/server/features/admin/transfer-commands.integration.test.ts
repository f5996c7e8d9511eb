import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { queryRows } from '@/server/platform/db/client';
import { auditEvents } from '@/server/platform/db/schema';
import { testDatabase, testWorkDir } from '@test-support/route-tests';
import { resetTransferState } from '@/server/features/transfer/progress';
import { UsageError } from './command';
import { runAdminCommand } from './commands';
import { brokenArchives } from '@test-support/broken-archives';
import { localTransferArgs } from './transfer-commands';
import { createContent } from '@/server/services/cms/writes';

const tmp = testWorkDir('transfer-commands');

describe('export, import and import-microcms on the command line', () => {
  const source = testDatabase({ global: false });
  const target = testDatabase({ global: false });
  const archive = path.join(tmp, 'content.tar.gz');

  beforeAll(async () => {
    await createContent(source.db, findEndpoint('tags')!, {
      id: 'tag-1',
      body: { name: '建築' },
      status: 'publish',
    });
    resetTransferState();
  });

  it('exports to a file, audited with the CLI user, and will not overwrite one', async () => {
    const lines = await runAdminCommand({ database: source, actor: 'cli:test' }, 'export', {
      out: archive,
    });
    expect(lines[0]).toMatch(/^書き出しました: .*content\.tar\.gz/);
    expect(lines[1]).toMatch(
      /^コンテンツ 1 件 \/ 版の履歴 \d+ 件 \/ メディア 0 件 \/ ファイル 0 件$/,
    );
    expect(fs.statSync(archive).size).toBeGreaterThan(100);
    const audits = await source.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'content-exported'));
    expect(audits.map((a) => a.actor)).toEqual(['cli:test']);
    await expect(
      runAdminCommand({ database: source, actor: 'cli:test' }, 'export', { out: archive }),
    ).rejects.toThrow(UsageError);
    await expect(
      runAdminCommand({ database: source, actor: 'cli:test' }, 'export', { out: 'relative.tgz' }),
    ).rejects.toThrow(/絶対パス/);
  });

  it('refuses an archive cut short or damaged, saying so, and keeps nothing of it', async () => {
    for (const { file, says } of brokenArchives(archive))
      await expect(
        runAdminCommand({ database: target, actor: 'cli:test' }, 'import', { file }),
        file,
      ).rejects.toThrow(says);
    const [row] = await queryRows<{ n: number }>(
      target.db,
      sql`SELECT count(*)::int AS n FROM cms_contents`,
    );
    expect(row!.n).toBe(0);
  });

  it('imports the file into an empty instance, and refuses the same into one with content', async () => {
    const lines = await runAdminCommand({ database: target, actor: 'cli:test' }, 'import', {
      file: archive,
    });
    expect(lines[0]).toBe('取り込みました (content.tar.gz)。');
    expect(lines[1]).toMatch(/^コンテンツ: タグ 1 件/);
    const [row] = await queryRows<{ n: number }>(
      target.db,
      sql`SELECT count(*)::int AS n FROM cms_contents`,
    );
    expect(row!.n).toBe(1);
    await expect(
      runAdminCommand({ database: target, actor: 'cli:test' }, 'import', { file: archive }),
    ).rejects.toThrow(/すでにコンテンツがあるため取り込めません（タグ 1 件）/);
  });

  it('reads the microCMS key from the named variable in the CLI process, never from a flag', () => {
    process.env.TEST_MICROCMS_KEY = 'key-from-env';
    const args = localTransferArgs('import-microcms', {
      'base-url': 'https://svc.microcms.io/api/v1',
      'api-key-env': 'TEST_MICROCMS_KEY',
      'resolved-api-key': 'typed-on-the-command-line',
    });
    expect(args['resolved-api-key']).toBe('key-from-env');
    expect(() =>
      localTransferArgs('import-microcms', {
        'base-url': 'https://svc.microcms.io/api/v1',
        'api-key-env': 'NO_SUCH_VARIABLE_FOR_TEST',
      }),
    ).toThrow(/環境変数 NO_SUCH_VARIABLE_FOR_TEST に API キーが設定されていません/);
    expect(localTransferArgs('export', { out: 'x.tgz' }).out).toBe(path.resolve('x.tgz'));
  });

  it('refuses a bad base URL before anything starts', async () => {
    await expect(
      runAdminCommand({ database: source, actor: 'cli:test' }, 'import-microcms', {
        'base-url': 'http://example.com',
        'api-key-env': 'X',
        'resolved-api-key': 'k',
      }),
    ).rejects.toThrow(/--base-url: https:\/\/<サービスID>\.microcms\.io\/api\/v1 の形で/);
  });
});
