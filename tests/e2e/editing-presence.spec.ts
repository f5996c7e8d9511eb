import { type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { ROLES, pageAs } from './support/roles';

/**
 * Editing presence (docs/decisions/038-editing-presence.md) in Chromium, with two browser
 * contexts signed in as two staff members: each sees 「〇〇さんが…から編集中です」 on the item's
 * editor and the list marks the item, before anyone saves; once one saves, the other is warned
 * at their next heartbeat (the page's clock is moved, nothing waits 15 s), and their save still
 * stops at the conflict. Expiry, leaving and the contributor's limits are the integration
 * test's (src/server/features/console/presence.integration.test.ts).
 */

/** The editor's heartbeat (HEARTBEAT_MS, src/lib/cms/presence.ts: aliased, not importable here). */
const HEARTBEAT_MS = 15_000;
const TITLE = '同時編集の記事';
const editorName = ROLES.editor.name;
const adminName = ROLES.admin.name;

const presenceOf = (page: Page) => page.getByRole('status').filter({ hasText: 'さんが' });

const heartbeat = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/presence') && r.ok());

/** Opens the item's editor and waits for its first heartbeat's answer. */
async function openEditor(page: Page, path: string) {
  const beat = heartbeat(page);
  await page.goto(path);
  await beat;
}

/** Moves the page's (installed) clock to its next heartbeat, and waits for the answer. */
async function nextHeartbeat(page: Page) {
  const beat = heartbeat(page);
  await page.clock.runFor(HEARTBEAT_MS);
  await beat;
}

test('two staff members on one post see each other before a save conflicts', async ({
  browser,
  baseURL,
}) => {
  const editor = await pageAs(browser, 'editor');
  const admin = await pageAs(browser, 'admin');
  const origin = baseURL!;
  const created = await editor.request.post('/api/admin/content/posts', {
    headers: { accept: 'application/json', origin },
    data: { fields: { title: TITLE } },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const path = `/admin/content/posts/${id}`;

  try {
    // The admin's clock is the test's: their heartbeats come when the test moves it.
    await admin.clock.install();
    await openEditor(admin, path);
    // The list marks the item the admin has open (its HTML: no script is involved); the editor
    // opening it sees them there.
    const list = await (await editor.request.get('/admin/content/posts')).text();
    expect(list).toMatch(new RegExp(`>${TITLE}</a><span[^>]*>${adminName}さんが編集中<`));
    await openEditor(editor, path);
    await expect(presenceOf(editor)).toHaveText(
      `${adminName}さんがさきほどから編集中です。同時に変更すると、あとから保存する人に競合の確認が表示されます。`,
    );
    await expectNoAxeViolations(editor, 'the editor with a presence notice');
    await nextHeartbeat(admin);
    await expect(presenceOf(admin)).toContainText(`${editorName}さんがさきほどから編集中です。`);

    // The editor saves; the admin's next heartbeat says so, and their save is still a conflict.
    await editor.getByRole('textbox', { name: /^タイトル/ }).fill(`${TITLE}（編集者の修正）`);
    await editor.getByRole('button', { name: '下書きを保存' }).click();
    await expect(editor.getByText(/^保存しました/)).toBeVisible();
    await nextHeartbeat(admin);
    await expect(presenceOf(admin)).toContainText(
      new RegExp(`${editorName}さんが.+にこの項目を保存しました。このまま保存すると競合します。`),
    );
    await admin.getByRole('textbox', { name: /^タイトル/ }).fill(`${TITLE}（管理者の修正）`);
    await admin.getByRole('button', { name: '下書きを保存' }).click();
    await expect(admin.getByRole('alert').filter({ hasText: editorName })).toContainText(
      'あなたの変更はまだ保存されていません',
    );
  } finally {
    await admin.request.delete(`/api/admin/content/posts/${id}`, {
      headers: { accept: 'application/json', origin },
      data: {},
    });
    await Promise.all([editor.context().close(), admin.context().close()]);
  }
});
