import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { listAudit } from '@/server/audit/audit-log';
import { createContent } from '@/server/cms/store';
import { isSuppressed, listSuppressions } from '@/server/newsletter/suppressions';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { UsageError } from './command';
import { helpText, runAdminCommand } from './commands';

// newsletter-send, newsletter-suppress and newsletter-unsuppress: what they print, what they
// change, and the audit record each leaves.

describe('newsletter commands', () => {
  const database = testDatabase({ global: false });
  const run = (name: string, args: Record<string, string>) =>
    runAdminCommand({ database, actor: 'cli:test' }, name, args);

  beforeAll(async () => {
    await addReaders(database.db, [{ id: 'r1' }, { id: 'r2' }, { id: 'r3', plan: 'active' }]);
    await createContent(database.db, findEndpoint('posts')!, {
      id: 'letter-post',
      body: { title: '今週の記事' },
      status: 'publish',
    });
  });

  it('are listed in the help', () => {
    const help = helpText().join('\n');
    for (const name of ['newsletter-send', 'newsletter-suppress', 'newsletter-unsuppress'])
      expect(help).toContain(name);
  });

  it('queues a post and prints how many letters were queued', async () => {
    const [all] = await run('newsletter-send', { post: 'letter-post' });
    expect(all).toMatch(
      /^記事 letter-post を配信を希望した全員あてに 3 通、配信キューに入れました/,
    );
    const [paid] = await run('newsletter-send', { post: 'letter-post', segment: 'paid' });
    expect(paid).toContain('有料会員あてに 1 通');
    const audit = (await listAudit(database.db, 10)).find((r) => r.action === 'newsletter-queued');
    expect(audit).toMatchObject({ actor: 'cli:test', detail: { segment: 'paid', queued: 1 } });
  });

  it('refuses an unknown or unpublished post and a bad segment, in Japanese', async () => {
    await expect(run('newsletter-send', { post: 'nope' })).rejects.toThrow('記事が見つかりません');
    await expect(run('newsletter-send', { post: 'nope' })).rejects.toBeInstanceOf(UsageError);
    await expect(
      run('newsletter-send', { post: 'letter-post', segment: 'vip' }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it('suppresses and unsuppresses an address, lower-cased, each change audited', async () => {
    const [added] = await run('newsletter-suppress', { email: 'R1@Example.jp', reason: 'bounce' });
    expect(added).toBe(
      'r1@example.jp を配信停止リストに加えました (理由: bounce)。以後のニュースレターは送られません。',
    );
    expect(await isSuppressed(database.db, 'r1@example.jp')).toBe(true);
    const [again] = await run('newsletter-suppress', { email: 'r1@example.jp', reason: 'bounce' });
    expect(again).toContain('すでに');
    expect((await listSuppressions(database.db))[0]).toMatchObject({
      email: 'r1@example.jp',
      reason: 'bounce',
      createdBy: 'cli:test',
    });
    // A suppressed reader is left out of the next send.
    const [sent] = await run('newsletter-send', { post: 'letter-post' });
    expect(sent).toContain('全員あてに 2 通');

    const [removed] = await run('newsletter-unsuppress', { email: 'r1@example.jp' });
    expect(removed).toContain('配信停止リストから外しました');
    expect(await isSuppressed(database.db, 'r1@example.jp')).toBe(false);
    const [none] = await run('newsletter-unsuppress', { email: 'r1@example.jp' });
    expect(none).toContain('配信停止リストにありません');
    const actions = (await listAudit(database.db, 20)).map((r) => r.action);
    expect(actions).toContain('newsletter-suppressed');
    expect(actions).toContain('newsletter-unsuppressed');
    await expect(run('newsletter-suppress', { email: 'not-an-address' })).rejects.toBeInstanceOf(
      UsageError,
    );
  });
});
