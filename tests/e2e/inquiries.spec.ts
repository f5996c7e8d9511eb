import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { submitLogin } from './support/sign-in';
import {
  CHECK_WIDTHS,
  expectAccessibleAtWidths,
  expectNoAxeViolations,
  resizeTo,
} from './support/axe';

// The companies' inquiry forms: /jobs/about/contact (job posting) and /biz/request (partner
// application). Modelled on the contact form's tests (info-pages.spec.ts). Both forms share one
// rate limit of 5 an hour per address: this file sends 4 valid inquiries.

/** The kinds of the mails kept for an address (the admin CLI's outbox). */
const outboxFor = async (email: string) => (await admin('mail-outbox', '--to', email)).join('\n');

const stamp = Date.now();
const STAFF_PASSWORD = 'kumo-no-kakehashi-7315';

test.describe('the job-posting inquiry form', () => {
  test('a valid inquiry lands on the confirmation and is acknowledged by mail', async ({
    page,
  }) => {
    const email = `jobs-contact-${stamp}@example.jp`;
    await page.goto('/jobs/about/contact');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('求人掲載のお問い合わせ');
    await expect(page).toHaveTitle('求人掲載のお問い合わせ | AXIS Membership');
    await expect(
      page.getByRole('main').getByRole('link', { name: 'パートナープログラム', exact: true }),
    ).toHaveAttribute('href', '/biz/about');
    await page.getByLabel('会社名').fill('株式会社かたち設計');
    await page.getByLabel('お名前').fill('佐藤 一郎');
    await page.getByRole('main').getByLabel('メールアドレス').fill(email);
    await page.getByLabel('電話番号（任意）').fill('03-1234-5678');
    await page
      .getByLabel('お問い合わせ内容')
      .fill('プロダクトデザイナーを 2 名募集したいと考えています。\n掲載の条件を教えてください。');
    await page.getByRole('button', { name: '送信する' }).click();
    await expect(page).toHaveURL(/\/jobs\/about\/contact\?sent=1$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'お問い合わせを受け付けました',
    );
    await expect(page.getByRole('main').getByRole('status')).toContainText(
      '求人掲載についてのお問い合わせを受け付けました。',
    );
    await expectNoAxeViolations(page);
    expect(await outboxFor(email)).toContain('job-posting-acknowledged');
  });

  test('bad input shows Japanese messages beside the fields and sends nothing', async ({
    page,
  }) => {
    const email = `jobs-contact-bad-${stamp}@example.jp`;
    await page.goto('/jobs/about/contact');
    await page.getByRole('main').getByLabel('メールアドレス').fill(email);
    await page.getByLabel('電話番号（任意）').fill('03-12');
    await page.getByRole('button', { name: '送信する' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      '入力内容を確認してください。',
    );
    await expect(page.getByText('会社名を入力してください。')).toBeVisible();
    await expect(page.getByText('お名前を入力してください。')).toBeVisible();
    await expect(page.getByText('お問い合わせ内容を入力してください。')).toBeVisible();
    await expect(
      page.getByText('電話番号は、半角数字とハイフンで入力してください（例：03-1234-5678）。'),
    ).toBeVisible();
    await expect(page.getByLabel('会社名')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('電話番号（任意）')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/jobs\/about\/contact$/);
    expect(await outboxFor(email)).not.toContain('job-posting-acknowledged');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the messages come back with what was typed, and a valid post is confirmed', async ({
      page,
    }) => {
      const email = `jobs-contact-nojs-${stamp}@example.jp`;
      await page.goto('/jobs/about/contact');
      await page.getByLabel('会社名').fill('余白デザイン事務所');
      await page.getByLabel('お問い合わせ内容').fill('インターンの募集も掲載できますか。');
      await page.getByRole('button', { name: '送信する' }).click();
      await expect(page).toHaveURL(/\/jobs\/about\/contact$/);
      await expect(page.getByText('お名前を入力してください。')).toBeVisible();
      await expect(page.getByText('メールアドレスを入力してください。')).toBeVisible();
      await expect(page.getByLabel('会社名')).toHaveValue('余白デザイン事務所');
      await expect(page.getByLabel('お問い合わせ内容')).toHaveValue(
        'インターンの募集も掲載できますか。',
      );

      await page.getByLabel('お名前').fill('鈴木 花');
      await page.getByRole('main').getByLabel('メールアドレス').fill(email);
      await page.getByRole('button', { name: '送信する' }).click();
      await expect(page).toHaveURL(/\/jobs\/about\/contact\?sent=1$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'お問い合わせを受け付けました',
      );
      expect(await outboxFor(email)).toContain('job-posting-acknowledged');
    });
  });
});

test.describe('the partner application form', () => {
  test('a valid application lands on the confirmation and is confirmed by mail', async ({
    page,
  }) => {
    const email = `biz-request-${stamp}@example.jp`;
    await page.goto('/biz/request');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'パートナープログラムのお申し込み',
    );
    await expect(page).toHaveTitle('パートナープログラムのお申し込み | AXIS Membership');
    await page.getByLabel('会社名').fill('余白デザイン事務所');
    await page.getByLabel('ご担当者名').fill('鈴木 花');
    await page.getByRole('main').getByLabel('メールアドレス').fill(email);
    await page.getByLabel('電話番号').fill('06-9876-5432');
    await page.getByLabel('ウェブサイト（任意）').fill('https://yohaku.example.jp');
    await page.getByLabel('従業員数').selectOption('10〜49名');
    await page.getByLabel('ご関心のあるプラン').selectOption('求人掲載');
    await page.getByLabel('ご相談・ご質問（任意）').fill('春の新卒採用に合わせて掲載したいです。');
    await page.getByRole('button', { name: '申し込む' }).click();
    await expect(page).toHaveURL(/\/biz\/request\?sent=1$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('お申し込みを受け付けました');
    await expect(page.getByRole('main').getByRole('status')).toContainText(
      'パートナープログラムへのお申し込みを受け付けました。',
    );
    await expectNoAxeViolations(page);
    expect(await outboxFor(email)).toContain('partner-application-acknowledged');
  });

  // Uses the application above: the forms' rate limit leaves no room for another one.
  test('staff find the application at /biz/axis-admin and move it along', async ({ browser }) => {
    const staffEmail = `biz-request-staff-${stamp}@example.jp`;
    await admin('create-user', '--email', staffEmail, '--password', STAFF_PASSWORD);
    await admin('set-role', '--email', staffEmail, '--role', 'editor');
    const staff = await browser.newPage();
    await staff.goto('/login?next=/biz/axis-admin');
    await submitLogin(staff, staffEmail, STAFF_PASSWORD);
    await expect(staff).toHaveURL(/\/biz\/axis-admin$/);
    const email = `biz-request-${stamp}@example.jp`;
    const inquiry = staff.locator('#inquiries article').filter({ hasText: email });
    await expect(inquiry).toHaveCount(1);
    await expect(inquiry).toContainText('パートナープログラムへのお申し込み');
    await expect(inquiry).toContainText('余白デザイン事務所');
    await expect(inquiry.getByRole('link', { name: email })).toHaveAttribute(
      'href',
      `mailto:${email}`,
    );
    await expect(inquiry).toContainText('春の新卒採用に合わせて掲載したいです。');
    await inquiry.getByLabel('対応状況').selectOption('in-progress');
    await inquiry.getByRole('button', { name: /更新/ }).click();
    await expect(staff.getByRole('main').getByRole('status')).toHaveText(
      '対応状況を「対応中」にしました。',
    );
    await expect(
      staff.locator('#inquiries article').filter({ hasText: email }).getByLabel('対応状況'),
    ).toHaveValue('in-progress');
    await staff.close();
  });

  test('bad input shows Japanese messages beside the fields and sends nothing', async ({
    page,
  }) => {
    const email = `biz-request-bad-${stamp}@example.jp`;
    await page.goto('/biz/request');
    await page.getByLabel('会社名').fill('余白デザイン事務所');
    await page.getByRole('main').getByLabel('メールアドレス').fill(email);
    await page.getByLabel('ウェブサイト（任意）').fill('yohaku.example.jp');
    await page.getByRole('button', { name: '申し込む' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      '入力内容を確認してください。',
    );
    await expect(page.getByText('ご担当者名を入力してください。')).toBeVisible();
    await expect(page.getByText('電話番号を入力してください。')).toBeVisible();
    await expect(
      page.getByText('ウェブサイトは https:// から始まる URL で入力してください。'),
    ).toBeVisible();
    await expect(page.getByText('従業員数を選んでください。')).toBeVisible();
    await expect(page.getByText('ご関心のあるプランを選んでください。')).toBeVisible();
    await expect(page.getByLabel('従業員数')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('会社名')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/biz\/request$/);
    expect(await outboxFor(email)).not.toContain('partner-application-acknowledged');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the messages come back with what was typed, and a valid post is confirmed', async ({
      page,
    }) => {
      const email = `biz-request-nojs-${stamp}@example.jp`;
      await page.goto('/biz/request');
      await page.getByLabel('会社名').fill('かたち設計');
      await page.getByLabel('ウェブサイト（任意）').fill('katachi.example.jp');
      await page.getByLabel('ご関心のあるプラン').selectOption('イベント・見学会のご案内');
      await page.getByRole('button', { name: '申し込む' }).click();
      await expect(page).toHaveURL(/\/biz\/request$/);
      await expect(page.getByText('ご担当者名を入力してください。')).toBeVisible();
      await expect(
        page.getByText('ウェブサイトは https:// から始まる URL で入力してください。'),
      ).toBeVisible();
      await expect(page.getByLabel('会社名')).toHaveValue('かたち設計');
      await expect(page.getByLabel('ウェブサイト（任意）')).toHaveValue('katachi.example.jp');
      await expect(page.getByLabel('ご関心のあるプラン')).toHaveValue('イベント・見学会のご案内');
      expect(await outboxFor(email)).not.toContain('partner-application-acknowledged');

      await page.getByLabel('ご担当者名').fill('佐藤 一郎');
      await page.getByRole('main').getByLabel('メールアドレス').fill(email);
      await page.getByLabel('電話番号').fill('03-1234-5678');
      await page.getByLabel('ウェブサイト（任意）').fill('https://katachi.example.jp');
      await page.getByLabel('従業員数').selectOption('1〜9名');
      await page.getByRole('button', { name: '申し込む' }).click();
      await expect(page).toHaveURL(/\/biz\/request\?sent=1$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'お申し込みを受け付けました',
      );
      expect(await outboxFor(email)).toContain('partner-application-acknowledged');
    });
  });
});

test('axe-core finds no violations on the inquiry forms at 360 and 1280 px, errors shown', async ({
  page,
}) => {
  // Each form once, checked at both widths in turn (resized, not reloaded), then with its errors.
  for (const [path, submit] of [
    ['/jobs/about/contact', '送信する'],
    ['/biz/request', '申し込む'],
  ] as const) {
    await resizeTo(page, CHECK_WIDTHS[0], 800);
    await page.goto(path);
    await expectAccessibleAtWidths(page, path, { height: 800 });
    await page.getByRole('button', { name: submit }).click();
    await expect(page.getByText('会社名を入力してください。')).toBeVisible();
    await expectAccessibleAtWidths(page, `${path} with its errors`, { height: 800 });
  }
});
