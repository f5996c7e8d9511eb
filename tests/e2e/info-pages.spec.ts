import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { ROLES, signInAs } from './support/roles';
import { expectNoAxeViolations } from './support/axe';

// The site's information pages (CMS object endpoints, demo texts) and the contact form.

const PAGES: { path: string; title: string; description: string; text: string }[] = [
  {
    path: '/about',
    title: 'このサイトについて',
    description: 'AXIS Membership は、建築、グラフィック、プロダクト',
    text: '私たちが大切にしていること',
  },
  {
    path: '/faq',
    title: 'よくある質問',
    description: '会員登録、料金プラン、お支払い、解約など',
    text: '解約はいつでもできますか？',
  },
  {
    path: '/terms',
    title: '利用規約',
    description: 'AXIS Membership のご利用にあたっての条件',
    text: '第15条（準拠法および管轄）',
  },
  {
    path: '/specified-commercial-transactions',
    title: '特定商取引法に基づく表記',
    description: '特定商取引に関する法律第11条に基づく',
    text: '販売業者',
  },
  {
    path: '/studio',
    title: 'スタジオ',
    description: '編集部の仕事場であり、収録や撮影',
    text: 'スタジオでしていること',
  },
  {
    // The partner programme, linked from the header's menu and the footer as 法人の方へ.
    path: '/biz/about',
    title: '法人の方へ',
    description: 'デザイナーに届く求人掲載と、編集部との協働',
    text: 'パートナー企業ができること',
  },
];

for (const info of PAGES) {
  test(`${info.path} renders its CMS page with its title and passes axe`, async ({ page }) => {
    const response = await page.goto(info.path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(info.title);
    await expect(page).toHaveTitle(`${info.title} | AXIS Membership`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      new RegExp(`^${info.description}`),
    );
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      new RegExp(`${info.path}$`),
    );
    await expect(page.getByRole('main')).toContainText(info.text);
    await expectNoAxeViolations(page);
  });
}

test('/terms#privacy lands on the privacy article the sign-up form links to', async ({ page }) => {
  await page.goto('/terms#privacy');
  const privacy = page.locator('#privacy');
  await expect(privacy).toHaveCount(1);
  await expect(privacy.getByRole('heading', { level: 2 })).toHaveText('第13条（個人情報の取扱い）');
  await expect(privacy).toBeInViewport();
  // Only that article: the next one follows outside it.
  await expect(privacy).not.toContainText('第14条');
});

test.describe('the contact form', () => {
  const stamp = Date.now();

  test('an empty submit shows Japanese messages beside the fields', async ({ page }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('お問い合わせ');
    await expect(page).toHaveTitle('お問い合わせ | AXIS Membership');
    await page.getByRole('button', { name: '送信する' }).click();
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      '入力内容を確認してください。',
    );
    await expect(page.getByText('お名前を入力してください。')).toBeVisible();
    await expect(page.getByText('メールアドレスを入力してください。')).toBeVisible();
    await expect(page.getByText('お問い合わせの種類を選んでください。')).toBeVisible();
    await expect(page.getByText('お問い合わせ内容を入力してください。')).toBeVisible();
    await expect(page.getByLabel('お名前')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('お問い合わせの種類')).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page);
  });

  test('a valid message lands on the confirmation and is acknowledged by mail', async ({
    page,
  }) => {
    const email = `contact-${stamp}@example.jp`;
    await page.goto('/contact');
    await page.getByLabel('お名前').fill('読者 はなこ');
    await page.getByRole('main').getByLabel('メールアドレス').fill(email);
    await page.getByLabel('お問い合わせの種類').selectOption('記事・コンテンツについて');
    await page
      .getByLabel('お問い合わせ内容')
      .fill('連載「余白の設計」を楽しく読んでいます。\n次回の公開予定を教えてください。');
    await page.getByRole('button', { name: '送信する' }).click();
    await expect(page).toHaveURL(/\/contact\?sent=1$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'お問い合わせを受け付けました',
    );
    await expect(page.getByRole('main').getByRole('status')).toContainText(
      'お問い合わせを受け付けました。',
    );
    await expectNoAxeViolations(page);

    const outbox = (await admin('mail-outbox', '--to', email)).join('\n');
    expect(outbox).toContain('contact-acknowledged');
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the messages come back with what was typed, and a valid post is confirmed', async ({
      page,
    }) => {
      const email = `contact-nojs-${stamp}@example.jp`;
      await page.goto('/contact');
      await page.getByLabel('お名前').fill('読者 たろう');
      await page.getByLabel('お問い合わせ内容').fill('スタジオの見学はできますか。');
      await page.getByRole('button', { name: '送信する' }).click();
      await expect(page).toHaveURL(/\/contact$/);
      await expect(page.getByText('メールアドレスを入力してください。')).toBeVisible();
      await expect(page.getByText('お問い合わせの種類を選んでください。')).toBeVisible();
      await expect(page.getByLabel('お名前')).toHaveValue('読者 たろう');
      await expect(page.getByLabel('お問い合わせ内容')).toHaveValue('スタジオの見学はできますか。');

      await page.getByRole('main').getByLabel('メールアドレス').fill(email);
      await page.getByLabel('お問い合わせの種類').selectOption('その他');
      await page.getByRole('button', { name: '送信する' }).click();
      await expect(page).toHaveURL(/\/contact\?sent=1$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'お問い合わせを受け付けました',
      );
    });
  });

  test('a signed-in member finds their name and address filled in', async ({ page }) => {
    await signInAs(page, 'member');
    await page.goto('/contact');
    await expect(page.getByLabel('お名前')).toHaveValue(ROLES.member.name);
    await expect(page.getByRole('main').getByLabel('メールアドレス')).toHaveValue(
      ROLES.member.email,
    );
  });
});
