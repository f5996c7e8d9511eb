import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGE_MAX } from '@/lib/contact';
import { contactMessages } from '@/server/platform/db/schema';
import { listOutbox } from '@/server/platform/mail/mailer';
import { expectMailSays, onlyMailTo } from '@test-support/outbox';
import { publicFormTest } from '@test-support/public-forms';
import { CONTACT_SENT_PAGE, listContactMessages, submitContact } from './contact';

const STAFF = 'editors@example.jp';

describe('the contact form against the database', () => {
  const form = publicFormTest();
  const { database, ctx } = form;
  const valid = (email: string) => ({
    name: '山田 花子',
    email,
    subject: '記事・コンテンツについて',
    message: '特集「余白の設計」の第3回を興味深く読みました。\r\n続きはいつ公開されますか。',
  });
  const rowsFrom = (email: string) =>
    database.db.select().from(contactMessages).where(eq(contactMessages.email, email));
  /** One message from a new client address, signed out unless `user` is given. */
  const submit = (input: unknown, options: { to?: string; user?: { id: string } } = {}) =>
    submitContact({ db: database.db, contactTo: options.to }, input, ctx(), options.user ?? null);

  it('keeps a valid message, mails it to the staff address and acknowledges it to the sender', async () => {
    const email = 'hanako@example.jp';
    const result = await submit({ ...valid(' Hanako@Example.JP ') }, { to: STAFF });
    expect(result).toEqual({
      ok: true,
      redirectTo: CONTACT_SENT_PAGE,
      message: 'お問い合わせを受け付けました。',
    });

    const [row, ...others] = await rowsFrom(email);
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({
      name: '山田 花子',
      email,
      subject: '記事・コンテンツについて',
      // CRLF from the browser's textarea is kept as one line break.
      message: '特集「余白の設計」の第3回を興味深く読みました。\n続きはいつ公開されますか。',
      userId: null,
    });

    expectMailSays(await onlyMailTo(database.db, STAFF, 'contact-received'), {
      subject: ['お問い合わせ：記事・コンテンツについて'],
      text: ['お名前：山田 花子', `メールアドレス：${email}`, '続きはいつ公開されますか。'],
      html: ['特集「余白の設計」'],
    });
    expectMailSays(await onlyMailTo(database.db, email, 'contact-acknowledged'), {
      subject: ['お問い合わせを受け付けました'],
      text: ['「記事・コンテンツについて」のお問い合わせを受け付けました'],
      // Nothing the sender typed is repeated to whatever address was entered.
      notInText: ['余白の設計', '山田'],
    });
  });

  it('without a staff address keeps the message and only acknowledges it', async () => {
    const email = 'no-staff@example.jp';
    await form.expectOnlyAcknowledged({ staff: STAFF, email, kind: 'contact-acknowledged' }, () =>
      submit(valid(email)),
    );
    expect(await rowsFrom(email)).toHaveLength(1);
  });

  it('records the signed-in sender', async () => {
    const result = await submit(
      { ...valid('member@example.jp'), subject: '料金プラン・お支払いについて' },
      { to: STAFF, user: await form.member('contact-user-1', '会員 太郎', 'member@example.jp') },
    );
    expect(result.ok).toBe(true);
    const [row] = await rowsFrom('member@example.jp');
    expect(row).toMatchObject({
      userId: 'contact-user-1',
      subject: '料金プラン・お支払いについて',
    });
    const [toStaff] = await listOutbox(database.db, { to: STAFF });
    expect(toStaff!.textBody).toContain('ログイン中の会員（ID: contact-user-1）');
  });

  it('answers Japanese messages per field and keeps nothing for invalid input', async () => {
    const expectUnchanged = await form.expectNothingKept(
      async () => (await database.db.select().from(contactMessages)).length,
    );

    const empty = await submit(
      { name: ' ', email: '', subject: '', message: '\r\n' },
      { to: STAFF },
    );
    expect(empty).toEqual({
      ok: false,
      status: 400,
      message: '入力内容を確認してください。',
      fieldErrors: {
        name: 'お名前を入力してください。',
        email: 'メールアドレスを入力してください。',
        subject: 'お問い合わせの種類を選んでください。',
        message: 'お問い合わせ内容を入力してください。',
      },
    });

    const missing = await submit({});
    expect(missing.ok).toBe(false);
    expect(!missing.ok && Object.keys(missing.fieldErrors ?? {}).sort()).toEqual([
      'email',
      'message',
      'name',
      'subject',
    ]);

    const wrong = await submit({
      name: 'x'.repeat(101),
      email: 'not-an-address',
      subject: '取材のご依頼', // not one of the choices
      message: 'あ'.repeat(CONTACT_MESSAGE_MAX + 1),
    });
    expect(!wrong.ok && wrong.fieldErrors).toEqual({
      name: 'お名前は 100 文字以内にしてください。',
      email: 'メールアドレスの形式が正しくありません。',
      subject: 'お問い合わせの種類を選んでください。',
      message: 'お問い合わせ内容は 4,000 文字以内にしてください。',
    });

    const control = await submit({ ...valid('control@example.jp'), name: '山田\n花子' });
    expect(!control.ok && control.fieldErrors).toEqual({
      name: 'お名前に使えない文字が含まれています。',
    });

    await expectUnchanged();
  });

  it('counts line breaks as the form does: 4,000 characters with CRLF breaks fit', async () => {
    const email = 'long@example.jp';
    const line = `${'あ'.repeat(99)}\r\n`; // 100 characters in the form, 101 as posted
    const text = line.repeat(39) + 'い'.repeat(100); // 4,000 characters in the form
    const result = await submit({ ...valid(email), message: text });
    expect(result.ok).toBe(true);
    const [row] = await rowsFrom(email);
    expect(row!.message).toHaveLength(CONTACT_MESSAGE_MAX);
    // A NUL byte (which PostgreSQL cannot store) is dropped rather than failing the post.
    const nul = await submit({ ...valid('nul@example.jp'), message: 'こんにちは\u0000' });
    expect(nul.ok).toBe(true);
    expect((await rowsFrom('nul@example.jp'))[0]!.message).toBe('こんにちは');
  });

  it('answers 429 to the sixth message from one address within the hour', async () => {
    const sixth = await form.expectSixthFromOneAddressRefused(
      '203.0.113.77',
      (email, ip) => submitContact({ db: database.db }, valid(email), ip, null),
      rowsFrom,
    );
    expect(!sixth.ok && sixth.retryAfter).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await submit(valid('other@example.jp'))).ok).toBe(true);
  });

  it('answers 429 to the fourth message from one e-mail address within the hour', async () => {
    await form.expectFourthFromOneEmailRefused(
      (email, ip) => submitContact({ db: database.db }, valid(email), ip, null),
      rowsFrom,
    );
  });

  it('lists the received messages newest first', async () => {
    const messages = await listContactMessages(database.db, { limit: 1000 });
    expect(messages.length).toBeGreaterThan(5);
    const times = messages.map((m) => m.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const newest = messages[0]!;
    expect(typeof newest.id).toBe('string');
    expect(newest.createdAt).toBeInstanceOf(Date);
    expect(newest).toMatchObject({
      name: '山田 花子',
      email: 'mail-limit@example.jp',
      subject: '記事・コンテンツについて',
      userId: null,
    });
    expect(Object.keys(newest).sort()).toEqual([
      'createdAt',
      'email',
      'id',
      'message',
      'name',
      'subject',
      'userId',
    ]);
  });
});
