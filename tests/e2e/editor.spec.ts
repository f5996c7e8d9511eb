import { type Page, expect, test } from '@playwright/test';
import { pageAs } from './support/roles';

/**
 * The rich-text editor's writing surface in Chromium, with the real keyboard and a Japanese IME
 * (composition through the DevTools protocol, as an IME drives the page): links cover exactly
 * what was selected when Ctrl+K was pressed and do not grow as one types after them; a block
 * inserted into an empty paragraph leaves the caret in a paragraph after it; the `/` menu.
 * Nothing is saved: the editor of a new post is enough.
 */

const body = (page: Page) => page.getByRole('textbox', { name: '本文' });

async function newPostBody(page: Page) {
  await page.goto('/admin/content/posts/new');
  const editor = body(page);
  // The editor replaces the HTML stand-in once it is ready (it is a contenteditable then).
  await expect(editor).toHaveAttribute('contenteditable', 'true');
  await editor.click();
  return editor;
}

/** The body's top-level blocks, as tag:text. */
const blocks = (page: Page) =>
  body(page).evaluate((element) =>
    [...element.children].map((child) => `${child.localName}:${child.textContent ?? ''}`),
  );

/** Japanese typed through an IME: the composition, then its commit. */
async function compose(page: Page, reading: string, committed: string) {
  const cdp = await page.context().newCDPSession(page);
  for (let end = 1; end <= reading.length; end++) {
    await cdp.send('Input.imeSetComposition', {
      text: reading.slice(0, end),
      selectionStart: end,
      selectionEnd: end,
    });
  }
  await cdp.send('Input.insertText', { text: committed });
  await cdp.detach();
}

test('a link covers the selection at Ctrl+K, even at macro speed, and does not grow', async ({
  browser,
}) => {
  const page = await pageAs(browser, 'editor');
  const editor = await newPostBody(page);
  await page.keyboard.type('詳しくはこちら');
  // As a keyboard macro does: select, Ctrl+K, the URL and Enter with no pause in between.
  for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Control+k');
  await page.keyboard.type('https://example.com/guide');
  await page.keyboard.press('Enter');
  const link = editor.locator('a');
  await expect(link).toHaveText('こちら');
  await expect(link).toHaveAttribute('href', 'https://example.com/guide');
  await expect(editor).toBeFocused();

  // The caret is left after the link: what is typed next is plain text after it, not a
  // replacement of the linked text (the key may come before the focus's return settles).
  await page.keyboard.type('を読む。');
  await expect(link).toHaveText('こちら');
  // So does a Japanese IME composing there.
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await compose(page, 'にほん', '日本');
  await expect(link).toHaveText('こちら');
  await expect(editor.locator('p').first()).toHaveText('詳しくはこちら日本を読む。');

  // A selection a script makes just before Ctrl+K.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('二つ目の語をリンク');
  await editor.evaluate((element) => {
    const text = element.querySelectorAll('p')[1]!.firstChild!;
    window.getSelection()!.setBaseAndExtent(text, 4, text, 6);
  });
  await page.keyboard.press('Control+k');
  await page.keyboard.type('/posts/abc');
  await page.keyboard.press('Enter');
  await expect(editor.locator('p').nth(1).locator('a')).toHaveText('語を');
  await expect(editor.locator('a')).toHaveCount(2);
  await page.context().close();
});

test('an image or embed inserted into an empty paragraph leaves the caret after it', async ({
  browser,
}) => {
  const page = await pageAs(browser, 'editor');
  await newPostBody(page);
  const toolbar = page.getByRole('toolbar', { name: '書式' });
  await page.keyboard.type('最初の段落');
  await page.keyboard.press('Enter');

  await toolbar.getByRole('button', { name: '画像' }).click();
  const imageDialog = page.getByRole('dialog', { name: '画像を挿入' });
  await imageDialog.getByRole('textbox', { name: /画像の URL/ }).fill('/images/sample.jpg');
  await imageDialog.getByRole('textbox', { name: /代替テキスト/ }).fill('見本の画像');
  await imageDialog.getByRole('button', { name: '画像を挿入' }).click();
  await expect(imageDialog).toBeHidden();
  await expect(body(page)).toBeFocused();
  await page.keyboard.type('画像の後');

  await page.keyboard.press('Enter');
  await toolbar.getByRole('button', { name: '埋め込み' }).click();
  const embedDialog = page.getByRole('dialog', { name: '埋め込みを挿入' });
  await embedDialog
    .getByRole('textbox', { name: /埋め込む URL/ })
    .fill('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
  await embedDialog.getByRole('button', { name: '埋め込む' }).click();
  await expect(embedDialog).toBeHidden();
  await expect(body(page)).toBeFocused();
  // Japanese through the IME lands after the embed too.
  await compose(page, 'あと', '後');

  await expect
    .poll(() => blocks(page))
    .toEqual([
      'p:最初の段落',
      expect.stringMatching(/^figure:/),
      'p:画像の後',
      expect.stringMatching(/^div:埋め込み：YouTube/),
      'p:後',
    ]);
  await page.context().close();
});

test('the / menu, moving blocks by keyboard and mouse, internal-link search and the counts', async ({
  browser,
}) => {
  const page = await pageAs(browser, 'editor');
  const editor = await newPostBody(page);
  await page.keyboard.type('一段落目');
  await page.keyboard.press('Enter');
  await page.keyboard.type('/みだし');
  const menu = page.getByRole('listbox', { name: '挿入するブロック' });
  await expect(menu.getByRole('option')).toHaveCount(3);
  await page.keyboard.press('ArrowDown');
  const h3 = menu.getByRole('option', { name: /見出し3/ });
  await expect(h3).toHaveAttribute('aria-selected', 'true');
  await expect(editor).toHaveAttribute('aria-activedescendant', (await h3.getAttribute('id'))!);
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await page.keyboard.type('二つ目');
  await expect(editor.locator('h3')).toHaveText('二つ目');

  // Alt+↑ moves the heading above the paragraph; the handle drags the paragraph back up.
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(() => blocks(page)).toEqual(['h3:二つ目', 'p:一段落目']);
  await editor.locator('p').hover();
  const handle = page.locator('[data-block-handle]');
  await expect(handle).toBeVisible();
  // The drag's events are sent in the page: Playwright's native drag (dragTo, mouse down-move-
  // up) never finished its move on this Chromium. The drop is ProseMirror's, at real coordinates.
  await handle.evaluate((source) => {
    const target = document.querySelector('[role="textbox"] h3')!;
    const transfer = new DataTransfer();
    const { left, top } = target.getBoundingClientRect();
    const at = { bubbles: true, cancelable: true, dataTransfer: transfer };
    const over = { ...at, clientX: left + 4, clientY: top + 2 };
    source.dispatchEvent(new DragEvent('dragstart', at));
    target.dispatchEvent(new DragEvent('dragover', over));
    target.dispatchEvent(new DragEvent('drop', over));
    source.dispatchEvent(new DragEvent('dragend', at));
  });
  await expect.poll(() => blocks(page)).toEqual(['p:一段落目', 'h3:二つ目']);

  // 文字数 and 読了時間 follow the text.
  await expect(page.getByText('文字数 7')).toBeVisible();
  await expect(page.getByText('読了時間 1分未満')).toBeVisible();

  // A post found by its title in the link dialog.
  const lookup = await page.request.get('/api/admin/content/posts/lookup?ids=post-052');
  const title = ((await lookup.json()) as { items: { label: string }[] }).items[0]!.label;
  await editor.locator('p').click();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.press('Control+k');
  const dialog = page.getByRole('dialog', { name: 'リンクを挿入' });
  await dialog.getByRole('combobox', { name: 'サイト内の記事を探す' }).fill(title.slice(0, 8));
  const found = dialog.getByRole('option').filter({ hasText: '/posts/post-052' });
  await expect(found).toContainText(title);
  await found.click();
  await expect(dialog.getByRole('textbox', { name: /リンク先の URL/ })).toHaveValue(
    '/posts/post-052',
  );
  await page.keyboard.press('Enter');
  await expect(editor.locator('p a')).toHaveAttribute('href', '/posts/post-052');
  await expect(editor.locator('p a')).toHaveText('一段落目');
  await page.context().close();
});
