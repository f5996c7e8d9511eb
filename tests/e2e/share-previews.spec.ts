import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { pageAs } from './support/roles';

/**
 * The editor's 検索と共有 panel in Chromium: its previews of the link on Google, X, Facebook and
 * LINE follow what is typed, cut by width as those surfaces cut Japanese text. Nothing is
 * saved: the editor of a new post is enough. The screenshot is docs/screenshots/share-previews.png.
 */

test('the share previews follow the title and meta fields as they are typed', async ({
  browser,
}) => {
  const page = await pageAs(browser, 'editor');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/admin/content/posts/new');
  const panel = page.getByRole('region', { name: '検索と共有' });
  const google = panel.getByRole('figure', { name: 'Google 検索結果' });
  const line = panel.getByRole('figure', { name: 'LINE のカード' });

  await page.getByRole('textbox', { name: /^タイトル/ }).fill('木造建築の未来');
  await expect(google.locator('[data-preview="title"]')).toHaveText(/^木造建築の未来 \| /);

  await panel.getByRole('textbox', { name: /メタタイトル/ }).pressSequentially('建'.repeat(40));
  await expect(google.locator('[data-preview="title"]')).toHaveText(`${'建'.repeat(28)} ...`);
  await expect(line.locator('[data-preview="title"]')).toHaveText(`${'建'.repeat(23)}…`);
  await panel.getByRole('textbox', { name: /メタディスクリプション/ }).fill('森林資源から考える。');
  await expect(
    panel
      .getByRole('figure', { name: 'Facebook のカード' })
      .locator('[data-preview="description"]'),
  ).toHaveText('森林資源から考える。');

  await expectNoAxeViolations(page, 'share panel');
  await panel.screenshot({ path: 'docs/screenshots/share-previews.png' });
});
