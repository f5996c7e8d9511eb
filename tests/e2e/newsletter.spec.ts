import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { pageAs } from './support/roles';

/**
 * The 「メールで配信」 step in Chromium, as an editor: a published post's letter previewed as a
 * free and a paid reader at phone and desktop width, a test letter to oneself (found in the
 * outbox), then the post sent to 無料会員 after a confirmation that names the number of
 * readers, and the send's status on the step. A screenshot of the step at 360 px is attached.
 * A draft with a YouTube video: its preview shows the video's still under the console's policy.
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

test('an editor previews, test-sends and sends a post to a segment', async ({
  browser,
}, testInfo) => {
  const page = await pageAs(browser, 'editor');
  // A published post of the demo corpus (one the home page features). Not the list's first:
  // another spec running beside this one publishes a post of its own and then deletes it.
  await page.goto('/admin/content/posts/post-052');
  const title = ((await page.getByRole('heading', { level: 1 }).textContent()) ?? '').trim();
  await page.getByRole('link', { name: 'メールで配信' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'メールで配信' })).toBeVisible();
  const stepPath = new URL(page.url()).pathname;

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
  await page.goto('/admin/mail');
  await expect(
    page.getByRole('row').filter({ hasText: 'role-editor@example.jp' }).first(),
  ).toContainText(title);

  // The send: 無料会員 with its count, confirmed on the next page. The step is opened afresh at
  // 360 px, at its own address. The address after the test letter ends in #newsletter-test: the
  // page used to load scrolled to that section at desktop width and be narrowed, then resized
  // again by a full-page screenshot, right before the click. That is the likely reason the radio
  // once stayed unchecked (not reproduced since): a page that moves between the press and the
  // release sends the click to their common parent, and Playwright checks its target at the
  // press only. Nothing moves the page before the click now, and check() fails if it misses.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(stepPath);
  const free = page
    .getByRole('group', { name: '配信先' })
    .getByRole('radio', { name: /^無料会員（/ });
  const label = (await page.locator('label[for="newsletter-segment-free"]').textContent()) ?? '';
  const count = Number(/（([\d,]+) 人）/.exec(label)?.[1]?.replace(/,/g, ''));
  expect(count).toBeGreaterThan(0);
  await free.check();
  await testInfo.attach('newsletter-step-360.png', {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });
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

/** A 1×1 GIF: what YouTube's still host answers here (the machine has no way out). */
const STILL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

test('the preview shows a video’s still, and the console’s policy lets it load', async ({
  browser,
  request,
}) => {
  const key = (
    await admin('create-api-key', '--name', 'e2e newsletter video', '--permissions', 'GET,POST')
  ).at(-1)!;
  // A draft: nothing a reader or another spec's list could see.
  const created = await request.post('/api/v1/posts?status=draft', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: {
      title: '動画のある下書き',
      body: '<p>動画の紹介です。</p><iframe src="https://www.youtube.com/embed/aqz-KE-bpKQ"></iframe>',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const page = await pageAs(browser, 'editor');
  // Every refusal, the preview frames' included: they are about:srcdoc, which watchCsp (of the
  // site's own documents) leaves out, under the console page's policy.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) refused.push(message.text());
  });
  // Reached only where the page's policy lets the image load (the browser checks it first).
  await page.route('https://i.ytimg.com/**', (route) =>
    route.fulfill({ contentType: 'image/gif', body: STILL }),
  );
  // The paid reader's letter: the whole text, the video included (a free reader's has the lead).
  await page.goto(`/admin/content/posts/${id}/newsletter?audience=paid`);
  for (const width of ['幅 360 px', '幅 640 px']) {
    const still = page
      .frameLocator(`iframe[title*="${width}"]`)
      .locator('img[src^="https://i.ytimg.com/vi/aqz-KE-bpKQ/"]');
    await expect(still, width).toHaveJSProperty('complete', true);
    await expect(still, width).toHaveJSProperty('naturalWidth', 1);
  }
  expect(refused).toEqual([]);
});
