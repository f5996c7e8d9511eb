import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INQUIRY_MESSAGE_MAX, type InquiryKind } from '@/lib/inquiries';
import { partnerInquiries } from '@/server/platform/db/schema';
import { listOutbox } from '@/server/platform/mail/mailer';
import { expectMailSays, onlyMailTo } from '@test-support/outbox';
import { publicFormTest } from '@test-support/public-forms';
import {
  INQUIRY_SENT_PAGES,
  listPartnerInquiries,
  setInquiryState,
  submitInquiry,
} from './inquiries';

const STAFF = 'biz@example.jp';

describe('the inquiry forms against the database', () => {
  const form = publicFormTest();
  const { database, ctx } = form;
  const jobPosting = (email: string) => ({
    company: '株式会社かたち設計',
    name: '佐藤 一郎',
    email,
    phone: '03-1234-5678',
    message:
      'プロダクトデザイナーを 2 名募集したいと考えています。\r\n掲載の条件を教えてください。',
  });
  const application = (email: string) => ({
    company: '余白デザイン事務所',
    name: '鈴木 花',
    email,
    phone: '06-9876-5432',
    website: 'https://yohaku.example.jp',
    companySize: '10〜49名',
    plan: '求人掲載',
    message: '',
  });
  const rowsFrom = (email: string) =>
    database.db.select().from(partnerInquiries).where(eq(partnerInquiries.email, email));
  const rowCount = async () => (await database.db.select().from(partnerInquiries)).length;
  /** One post from a new client address, signed out unless `user` is given. */
  const submit = (
    kind: InquiryKind,
    input: unknown,
    options: { to?: string; user?: { id: string } } = {},
  ) =>
    submitInquiry(
      kind,
      { db: database.db, contactTo: options.to },
      input,
      ctx(),
      options.user ?? null,
    );

  it('keeps a job-posting inquiry, mails it to staff and acknowledges it to the sender', async () => {
    const email = 'ichiro@example.jp';
    const result = await submit('job-posting', jobPosting(' Ichiro@Example.JP '), { to: STAFF });
    expect(result).toEqual({
      ok: true,
      redirectTo: INQUIRY_SENT_PAGES['job-posting'],
      message: 'お問い合わせを受け付けました。',
    });
    expect(INQUIRY_SENT_PAGES['job-posting']).toBe('/jobs/about/contact?sent=1');

    const [row, ...others] = await rowsFrom(email);
    expect(others).toHaveLength(0);
    expect(row).toMatchObject({
      kind: 'job-posting',
      company: '株式会社かたち設計',
      name: '佐藤 一郎',
      email,
      phone: '03-1234-5678',
      website: null,
      companySize: null,
      plan: null,
      message:
        'プロダクトデザイナーを 2 名募集したいと考えています。\n掲載の条件を教えてください。',
      state: 'new',
      userId: null,
    });
    expect(row!.createdAt).toBeInstanceOf(Date);
    expect(row!.updatedAt).toBeInstanceOf(Date);

    expectMailSays(await onlyMailTo(database.db, STAFF, 'job-posting-received'), {
      subject: ['求人掲載のお問い合わせ：株式会社かたち設計'],
      text: [
        '会社名：株式会社かたち設計',
        'ご担当者：佐藤 一郎',
        `メールアドレス：${email}`,
        '電話番号：03-1234-5678',
        '掲載の条件を教えてください。',
        // Staff follow it up from the programme's list.
        '/biz/axis-admin#inquiries',
      ],
      html: ['株式会社かたち設計'],
      notInText: ['従業員数'],
    });
    expectMailSays(await onlyMailTo(database.db, email, 'job-posting-acknowledged'), {
      subject: ['求人掲載のお問い合わせを受け付けました'],
      text: ['求人掲載についてのお問い合わせを受け付けました'],
      // Nothing the sender typed goes to whatever address was entered; no button in plain text.
      notInText: ['かたち設計', '佐藤', '募集', 'ボタン'],
    });
  });

  it('keeps a partner application, confirms it to the applicant and mails staff', async () => {
    const email = 'hana@example.jp';
    const result = await submit('partner-application', application(email), { to: STAFF });
    expect(result).toEqual({
      ok: true,
      redirectTo: '/biz/request?sent=1',
      message: 'お申し込みを受け付けました。',
    });
    const [row] = await rowsFrom(email);
    expect(row).toMatchObject({
      kind: 'partner-application',
      company: '余白デザイン事務所',
      name: '鈴木 花',
      phone: '06-9876-5432',
      website: 'https://yohaku.example.jp',
      companySize: '10〜49名',
      plan: '求人掲載',
      // The optional message left empty is null, not ''.
      message: null,
      state: 'new',
    });

    const toStaff = (await listOutbox(database.db, { to: STAFF })).find(
      (m) => m.kind === 'partner-application-received',
    );
    expectMailSays(toStaff!, {
      subject: ['パートナープログラムへのお申し込み：余白デザイン事務所'],
      text: [
        '従業員数：10〜49名',
        'ご関心のあるプラン：求人掲載',
        'ウェブサイト：https://yohaku.example.jp',
      ],
      notInText: ['お問い合わせ内容――'],
    });
    expectMailSays(await onlyMailTo(database.db, email, 'partner-application-acknowledged'), {
      subject: ['パートナープログラムへのお申し込みを受け付けました'],
      notInText: ['余白デザイン', 'ボタン'],
    });
  });

  it('without a staff address keeps the inquiry and only acknowledges it', async () => {
    const email = 'no-staff@example.jp';
    await form.expectOnlyAcknowledged(
      { staff: STAFF, email, kind: 'job-posting-acknowledged' },
      () => submit('job-posting', { ...jobPosting(email), phone: '' }),
    );
    const [row] = await rowsFrom(email);
    expect(row!.phone).toBeNull();
  });

  it('records the signed-in sender', async () => {
    const result = await submit('partner-application', application('member@example.jp'), {
      to: STAFF,
      user: await form.member('inquiry-user-1', '会員 次郎', 'member@example.jp'),
    });
    expect(result.ok).toBe(true);
    expect((await rowsFrom('member@example.jp'))[0]).toMatchObject({ userId: 'inquiry-user-1' });
  });

  const PHONE_FORMAT = '電話番号は、半角数字とハイフンで入力してください（例：03-1234-5678）。';
  it.each<[string, InquiryKind, Record<string, unknown>, Record<string, string>]>([
    [
      'an empty job-posting form',
      'job-posting',
      { company: ' ', name: '', email: '', phone: '', message: '\r\n' },
      {
        company: '会社名を入力してください。',
        name: 'お名前を入力してください。',
        email: 'メールアドレスを入力してください。',
        message: 'お問い合わせ内容を入力してください。',
      },
    ],
    [
      'a wrong job-posting form',
      'job-posting',
      {
        company: '会'.repeat(101),
        name: '佐藤\n一郎',
        email: 'not-an-address',
        phone: '03-1234-567８',
        message: 'あ'.repeat(INQUIRY_MESSAGE_MAX + 1),
      },
      {
        company: '会社名は 100 文字以内にしてください。',
        name: 'お名前に使えない文字が含まれています。',
        email: 'メールアドレスの形式が正しくありません。',
        phone: PHONE_FORMAT,
        message: 'お問い合わせ内容は 4,000 文字以内にしてください。',
      },
    ],
    [
      'a job-posting form with a short phone number',
      'job-posting',
      { ...jobPosting('short@example.jp'), phone: '123-456' },
      { phone: PHONE_FORMAT },
    ],
    [
      'an empty partner application',
      'partner-application',
      {},
      {
        company: '会社名を入力してください。',
        name: 'ご担当者名を入力してください。',
        email: 'メールアドレスを入力してください。',
        phone: '電話番号を入力してください。',
        companySize: '従業員数を選んでください。',
        plan: 'ご関心のあるプランを選んでください。',
      },
    ],
    [
      'a wrong partner application',
      'partner-application',
      {
        ...application('wrong@example.jp'),
        website: 'javascript:alert(1)',
        companySize: '5000名', // not one of the choices
        plan: '無料プラン',
        message: 'い'.repeat(INQUIRY_MESSAGE_MAX + 1),
      },
      {
        website: 'ウェブサイトは https:// から始まる URL で入力してください。',
        companySize: '従業員数を選んでください。',
        plan: 'ご関心のあるプランを選んでください。',
        message: 'ご相談・ご質問は 4,000 文字以内にしてください。',
      },
    ],
  ])(
    'answers Japanese messages per field of %s and keeps nothing',
    async (_, kind, input, fieldErrors) => {
      const expectUnchanged = await form.expectNothingKept(rowCount);
      expect(await submit(kind, input, { to: STAFF })).toEqual({
        ok: false,
        status: 400,
        message: '入力内容を確認してください。',
        fieldErrors,
      });
      await expectUnchanged();
    },
  );

  /** Odd posts are job-posting inquiries, even ones partner applications. */
  const eitherForm = (email: string, ip: { ip: string }, n: number) =>
    n % 2
      ? submitInquiry('job-posting', { db: database.db }, jobPosting(email), ip, null)
      : submitInquiry('partner-application', { db: database.db }, application(email), ip, null);

  it('answers 429 to the sixth inquiry from one address within the hour, across both forms', async () => {
    await form.expectSixthFromOneAddressRefused('203.0.113.88', eitherForm, rowsFrom);
  });

  it('answers 429 to the fourth inquiry from one e-mail address within the hour', async () => {
    await form.expectFourthFromOneEmailRefused(eitherForm, rowsFrom);
  });

  it('lists the inquiries newest first, a page at a time', async () => {
    const total = await rowCount();
    const first = await listPartnerInquiries(database.db, { page: 1, pageSize: 5 });
    expect(first).toMatchObject({ total, page: 1, totalPages: Math.ceil(total / 5) });
    expect(first.items).toHaveLength(5);
    expect(first.items[0]).toMatchObject({ email: 'mail-limit@example.jp', state: 'new' });
    const second = await listPartnerInquiries(database.db, { page: 2, pageSize: 5 });
    expect(second.items.map((i) => i.id)).not.toContain(first.items[0]!.id);
    const all = await listPartnerInquiries(database.db, { pageSize: 1000 });
    const times = all.items.map((i) => i.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // A page past the end, or not a page at all, is clamped.
    expect((await listPartnerInquiries(database.db, { page: 999, pageSize: 5 })).page).toBe(
      first.totalPages,
    );
    expect((await listPartnerInquiries(database.db, { page: -3, pageSize: 5 })).page).toBe(1);
    expect((await listPartnerInquiries(database.db, { page: Number.NaN })).page).toBe(1);
  });

  it('moves an inquiry through its states and refuses what is not one', async () => {
    const [row] = await rowsFrom('hana@example.jp');
    expect(await setInquiryState(database.db, row!.id, 'in-progress')).toBe(true);
    let [now] = await rowsFrom('hana@example.jp');
    expect(now!.state).toBe('in-progress');
    expect(now!.updatedAt.getTime()).toBeGreaterThanOrEqual(row!.updatedAt.getTime());
    expect(await setInquiryState(database.db, row!.id, 'done')).toBe(true);
    [now] = await rowsFrom('hana@example.jp');
    expect(now!.state).toBe('done');

    expect(await setInquiryState(database.db, '00000000-0000-4000-8000-000000000000', 'done')).toBe(
      false,
    );
    expect(await setInquiryState(database.db, 'not-a-uuid', 'done')).toBe(false);
    expect(await setInquiryState(database.db, row!.id, 'archived' as unknown as 'done')).toBe(
      false,
    );
    [now] = await rowsFrom('hana@example.jp');
    expect(now!.state).toBe('done');
  });
});
