import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { pageAs } from './support/roles';

/**
 * The 「メールで配信」 step in Chromium, as an editor: a published post's letter previewed as a
 * free and a paid reader at phone and desktop width, a test letter to oneself (found in the
 * outbox), then the post sent to 無料会員 after a confirmation that names the number of
 * readers, and the send's status on the step. A screenshot of the step at 360 px is attached.
 */

const READER = { email: 'newsletter-reader@example.jp', password: 'Haru-no-Tegami-2026' };

test.beforeAll(async ({ playwright, baseURL }) => {
  // A free reader who asked for the newsletter, so the segment is not empty.
  const existing = (await admin('list-users', '--limit', '500')).join('\n');
  if (!existing.includes(READER.email))
    await admin(
      'create-user',
      '--email',
      READER.email,
      '--password',
      READER.password,
      '--name',
      '配信 読者',
    );
  const api = await playwright.request.newContext({ baseURL });
  const signedIn = await api.post('/api/account/sign-in', {
    headers: { accept: 'application/json' },
    form: READER,
  });
  expect(signedIn.ok()).toBe(true);
  const saved = await api.post('/api/account/edit-profile', {
    headers: { accept: 'application/json', origin: new URL(baseURL!).origin },
    form: { displayName: '配信 読者', newsletter: 'on' },
  });
  expect(saved.ok(), await saved.text()).toBe(true);
  await api.dispose();
});

// Fixme: at 360 px the segment radio 「無料会員」 did not become checked, by check() or by its
// label, when this spec ran alone (it did beside others). Not reproduced since (the test passed
// alone once, 2026-11-27): a label click before hydration and one after both keep the choice and
// the radio is not remounted, so the cause is still open (a layout shift under the click is a
// suspect). Not reproduced either on 2026-11-27 evening: the spec passed alone, four times over
// with two workers, and the same label click at 360 px passed six times under CPU throttling (1×,
// 4×, 8×) with an event log showing the label's click reach the radio (input and change fired,
// nothing prevented, the radio still checked 1.5 s later); React's hydration keeps a radio's
// `checked` (initInput when hydrating). To be found and fixed: the console's send step.
test.fixme('an editor previews, test-sends and sends a post to a segment', async ({
  browser,
}, testInfo) => {
  const page = await pageAs(browser, 'editor');
  // A published post of the demo corpus (one the home page features). Not the list's first:
  // another spec running beside this one publishes a post of its own and then deletes it.
  await page.goto('/admin/content/posts/post-052');
  const title = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
  await page.getByRole('link', { name: 'メールで配信' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'メールで配信' })).toBeVisible();

  // The preview: the free reader's letter at both widths, then the paid reader's.
  const frames = page.locator('iframe[title^="メールのプレビュー（無料の読者"]');
  await expect(frames).toHaveCount(2);
  await expect(
    page.frameLocator('iframe[title*="幅 360 px"]').getByRole('link').first(),
  ).toBeVisible();
  await page
    .getByRole('group', { name: '読者' })
    .getByLabel(/有料会員/)
    .check();
  await page.getByRole('button', { name: '表示' }).click();
  await expect(page.locator('iframe[title^="メールのプレビュー（有料会員"]')).toHaveCount(2);

  // The test letter: to the editor, kept in the outbox.
  await page.getByRole('button', { name: '自分にテスト送信' }).click();
  await expect(
    page.getByRole('status').filter({
      hasText: 'テストメール（有料会員向け）を role-editor@example.jp に送信しました。',
    }),
  ).toBeVisible();
  const step = page.url();
  await page.goto('/admin/mail');
  await expect(
    page.getByRole('row').filter({ hasText: 'role-editor@example.jp' }).first(),
  ).toContainText(title);
  await page.goto(step);

  // The send: 無料会員 with its count, confirmed on the next page.
  await page.setViewportSize({ width: 360, height: 800 });
  const label = (await page.locator('label[for="newsletter-segment-free"]').textContent()) ?? '';
  const count = Number(/（([\d,]+) 人）/.exec(label)?.[1]?.replace(/,/g, ''));
  expect(count).toBeGreaterThan(0);
  await testInfo.attach('newsletter-step-360.png', {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });
  await page.waitForLoadState('networkidle');
  const free = page.getByRole('group', { name: '配信先' }).getByLabel(/^無料会員（/);
  await page.locator('label[for="newsletter-segment-free"]').click();
  await expect(free).toBeChecked();
  await page.getByRole('button', { name: '今すぐ配信…' }).click();
  await expect(
    page.getByText(
      `「無料会員」の ${count.toLocaleString('ja-JP')} 人に配信します。よろしいですか？`,
    ),
  ).toBeVisible();
  const resend = page.getByRole('checkbox', {
    name: '同じ記事をもう一度配信することを確認しました',
  });
  if (await resend.count()) await resend.check();
  await page.getByRole('button', { name: '配信する' }).click();
  await expect(
    page.getByText(`「無料会員」の ${count.toLocaleString('ja-JP')} 人への配信を始めました。`),
  ).toBeVisible();
  // The send's status on the step: its letters counted (queued, then sent as the sender works).
  const sends = page.getByRole('region', { name: 'この記事の配信' });
  await expect(sends.getByRole('status').first()).toContainText(`${count} 通中`);
  await expect(sends.getByText('無料会員への配信').first()).toBeVisible();
});
