import { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { listAudit } from '@/server/platform/audit/audit-log';
import { newsletterLetters, newsletterSuppressions } from '@/server/platform/db/schema';
import {
  REPORT_ACTOR,
  isSuppressed,
  listSuppressions,
} from '@/server/features/newsletter/suppressions';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { arfReport, gmailDsn, postfixDsn } from '@test-support/mail-reports';
import { UsageError } from './command';
import { helpText, runAdminCommand } from './commands';
import { localBounceArgs } from './newsletter-commands';
import { createContent } from '@/server/services/cms/writes';

// newsletter-send, newsletter-suppress, newsletter-unsuppress and newsletter-bounce: what they
// print, what they change, and the audit record each leaves.

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
    for (const name of [
      'newsletter-send',
      'newsletter-suppress',
      'newsletter-unsuppress',
      'newsletter-bounce',
    ])
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

  it('newsletter-bounce reads a bounce or a complaint from standard input and suppresses its address', async () => {
    // As scripts/admin.ts runs it: the mail parsed in the CLI process, the report to the command.
    const bounce = async (mail: string) =>
      runAdminCommand(
        { database, actor: 'cli:postfix' },
        'newsletter-bounce',
        await localBounceArgs('newsletter-bounce', {}, Readable.from([Buffer.from(mail)])),
      );
    await addReaders(database.db, [{ id: 'b1' }, { id: 'b2' }, { id: 'b3' }]);
    await run('newsletter-send', { post: 'letter-post' });
    const letters = await database.db
      .update(newsletterLetters)
      .set({ status: 'sent' })
      .where(inArray(newsletterLetters.email, ['b1@example.jp', 'b2@example.jp', 'b3@example.jp']))
      .returning({ id: newsletterLetters.id, email: newsletterLetters.email });
    const letterOf = (email: string) => letters.find((l) => l.email === email)!.id;

    // To the letter's VERP sender: the letter's address is suppressed, whatever alias bounced.
    const [bounced] = await bounce(
      postfixDsn({
        recipient: 'b1.forwarded@elsewhere.example',
        sender: `bounces+${letterOf('b1@example.jp')}@news.example.jp`,
      }),
    );
    expect(bounced).toBe(
      'b1@example.jp: 恒久的な不達の通知です (5.1.1)。配信停止リストに加えました (理由: 届かない（バウンス）)。',
    );
    const [row] = await database.db
      .select()
      .from(newsletterSuppressions)
      .where(eq(newsletterSuppressions.email, 'b1@example.jp'));
    expect(row).toMatchObject({ reason: 'bounce', createdBy: REPORT_ACTOR });
    expect(row!.note).toContain('5.1.1');
    const audit = (await listAudit(database.db, 5)).find((r) => r.target === 'email:b1@example.jp');
    expect(audit).toMatchObject({
      actor: REPORT_ACTOR,
      action: 'newsletter-suppressed',
      detail: { reason: 'bounce', code: '5.1.1', matchedBy: 'letter', via: 'cli:postfix' },
    });

    // A complaint about the same letter, the recipient redacted: found by the letter's header.
    const [complaint] = await bounce(
      arfReport({ recipient: 'redacted', rcptTo: null, letterId: letterOf('b1@example.jp') }),
    );
    expect(complaint).toContain('配信停止リストの理由を「迷惑メールの報告」に改めました');
    expect((await listSuppressions(database.db))[0]).toMatchObject({
      email: 'b1@example.jp',
      reason: 'complaint',
    });

    // No id at all: the address the DSN names counts because a letter went to it.
    expect(await bounce(gmailDsn({ recipient: 'B2@example.jp' }))).toEqual([
      'b2@example.jp: 恒久的な不達の通知です (5.1.1)。配信停止リストに加えました (理由: 届かない（バウンス）)。',
    ]);
    // A delay and a refusal of our letter change nothing.
    const [delayed] = await bounce(
      postfixDsn({ recipient: 'b3@example.jp', action: 'delayed', status: '4.4.1' }),
    );
    expect(delayed).toMatch(/^b3@example.jp: 一時的な遅延・失敗の通知です.*何も変更していません/);
    await bounce(postfixDsn({ recipient: 'b3@example.jp', status: '5.7.1' }));
    expect(await isSuppressed(database.db, 'b3@example.jp')).toBe(false);

    // Mail that names nobody we wrote to, or is no report, is refused (the CLI exits 2).
    await expect(bounce(postfixDsn({ recipient: 'stranger@example.com' }))).rejects.toThrow(
      new UsageError(
        'このサイトのニュースレターを送った宛先が、このメールのどこにも見つかりません。何も変更していません。',
      ),
    );
    await expect(bounce('Subject: hi\r\n\r\nhello\r\n')).rejects.toThrow(
      /でもないメールです \(text\/plain\)。何も変更していません。/,
    );
    await expect(run('newsletter-bounce', {})).rejects.toThrow(
      'メールを標準入力から渡してください',
    );
    expect(await isSuppressed(database.db, 'stranger@example.com')).toBe(false);
  });
});
