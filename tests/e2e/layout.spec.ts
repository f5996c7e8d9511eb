import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { resizeTo, sidewaysScroll } from './support/axe';
import { layoutShiftsOf } from './support/layout-shift';
import { signInByApi, submitLogin } from './support/sign-in';

// Layout (docs/decisions/000-design-baseline.md "Look and feel": a 360 px phone first): no page
// scrolls sideways on a phone (WCAG 2.1 reflow), whoever reads it and however long their name; the
// header keeps its controls on screen; a button's label wraps between words, never inside one;
// nothing moves once a page has loaded (CLS 0, whoever reads it); article text has a vertical
// rhythm; an anonymous bookmark click says why sign-in is needed.

const stamp = Date.now();
const password = 'nagai-namae-no-hon-12';
/** Long enough to push the menu button off a 360 px screen if it were not cut. */
const LONG_NAME = 'デザイン研究所の長い表示名さん';
const PHONE_WIDTHS = [320, 360, 390];
const PROMPT = 'ブックマークするにはログインしてください';

async function createMember(label: string): Promise<string> {
  const email = `layout-${label}-${stamp}@example.jp`;
  await admin('create-user', '--email', email, '--password', password, '--name', LONG_NAME);
  return email;
}

/** The first item page a list links to, e.g. the newest post from /posts. */
async function firstItem(page: Page, list: string, prefix: string): Promise<string> {
  await page.goto(list);
  const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href');
  expect(href, `${list} links to an item under ${prefix}`).toBeTruthy();
  return href!;
}

/** Every route of the issue, with one item page of each kind. */
async function routes(page: Page): Promise<string[]> {
  return [
    '/',
    '/posts',
    await firstItem(page, '/posts', '/posts/'),
    '/feature',
    await firstItem(page, '/feature', '/feature/'),
    '/series',
    '/insight',
    '/movies',
    await firstItem(page, '/movies', '/movies/'),
    await firstItem(page, '/audios', '/audios/'),
    '/connect',
    await firstItem(page, '/connect', '/connect/'),
    '/jobs',
    await firstItem(page, '/jobs', '/jobs/'),
    `/search?q=${encodeURIComponent('デザイン')}`,
    '/service-plans',
    '/about',
    '/faq',
    '/contact',
    '/terms',
    '/specified-commercial-transactions',
    '/studio',
    '/biz/about',
    '/login',
    '/sign-up',
    '/account/edit',
    '/account/receipts',
    '/posts/bookmark',
  ];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

for (const audience of ['visitor', 'member'] as const) {
  test(`no page scrolls sideways at 320–390 px, header controls on screen (${audience})`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    if (audience === 'member')
      await signInByApi(page.context(), await createMember('reflow'), password);
    const list = await routes(page);
    const banner = page.getByRole('banner');
    // A member's account control is named by the whole name, even when only the avatar shows.
    const account =
      audience === 'member'
        ? banner.getByRole('button', { name: LONG_NAME })
        : banner.getByRole('link', { name: 'ログイン', exact: true });
    const menu = banner.getByRole('button', { name: 'メニュー' });

    // Each route once, then resized in place to every phone width (no reload per width).
    for (const route of list) {
      await resizeTo(page, PHONE_WIDTHS[0]!, 800);
      await page.goto(route);
      for (const width of PHONE_WIDTHS) {
        await resizeTo(page, width, 800);
        const where = `${route} at ${width}px (${audience})`;
        // The account control comes with the auth state: the header is then complete.
        await expect.soft(account, where).toBeInViewport({ ratio: 1 });
        await expect.soft(menu, where).toBeInViewport({ ratio: 1 });
        expect.soft(await sidewaysScroll(page), where).toBeLessThanOrEqual(0);
      }
    }
  });
}

test('nothing moves as the header’s account control arrives: CLS 0 on a post and the plans page', async ({
  page,
}) => {
  const post = await firstItem(page, '/posts', '/posts/');
  const visitor = (p: Page) => [p.getByRole('banner').getByRole('link', { name: 'ログイン' })];
  const member = (p: Page) => [p.getByRole('banner').getByRole('button', { name: LONG_NAME })];
  for (const [who, ready] of [
    ['visitor', visitor],
    ['member', member],
  ] as const) {
    if (who === 'member') await signInByApi(page.context(), await createMember('shift'), password);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of [post, '/service-plans']) {
        const shifts = await layoutShiftsOf(page, path, ready);
        console.log(`CLS ${who} ${path} at ${width}px: ${shifts.total}`);
        expect.soft(shifts, `${path} at ${width}px (${who})`).toMatchObject({ total: 0 });
      }
    }
  }
});

test('a member’s long name on a phone: the avatar in the header, the full name in its menu', async ({
  page,
}) => {
  await signInByApi(page.context(), await createMember('menu'), password);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/posts');
  const trigger = page.getByRole('banner').getByRole('button', { name: LONG_NAME });
  await trigger.click();
  await expect(trigger).toHaveAttribute('aria-expanded', 'true');
  const menu = page.locator(`#${await trigger.getAttribute('aria-controls')}`);
  await expect(menu.getByText(LONG_NAME, { exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'アカウント設定' })).toBeInViewport({ ratio: 1 });
  await expect(menu.getByRole('button', { name: 'ログアウト' })).toBeInViewport({ ratio: 1 });
  expect(await sidewaysScroll(page)).toBeLessThanOrEqual(0);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(trigger).toBeFocused();
});

/**
 * A post for paying members: a visitor meets its paywall and its plan buttons. The newest
 * members' posts are open to a free account (SPEC §7's free-plan list, three of them), so the
 * fifth is for a paid plan (as in calls-to-action.spec.ts).
 */
async function paywalledPost(request: APIRequestContext): Promise<string> {
  const key = (await admin('create-api-key', '--name', 'e2e paywall', '--permissions', 'GET')).at(
    -1,
  )!;
  const res = await request.get(
    `/api/v1/posts?limit=5&fields=id&filters=${encodeURIComponent('isPublicPreview[not_equals]true')}`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  expect(res.status()).toBe(200);
  const { contents } = (await res.json()) as { contents: { id: string }[] };
  return `/posts/${contents[4]!.id}`;
}

/**
 * The labels of the page's buttons, and of its links drawn as buttons (a fill or an outline),
 * whose text goes on to a new line inside a word (「申し/込む」, 「ログイ/ン」): each character's
 * box is measured (Range.getClientRects), and a line must start where Intl.Segmenter's Japanese
 * words start. Text hidden for screen readers only (a 1 px box) is not drawn, so not measured.
 */
function labelsBrokenInsideAWord(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const words = new Intl.Segmenter('ja', { granularity: 'word' });
    const drawnAsButton = (el: Element) => {
      if (el.tagName !== 'A') return true;
      const style = getComputedStyle(el);
      const filled = !/^(transparent|rgba\(0, 0, 0, 0\))$/.test(style.backgroundColor);
      const outlined = ['Top', 'Right', 'Bottom', 'Left'].every(
        (side) => parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) > 0,
      );
      return filled || outlined;
    };
    const broken: string[] = [];
    for (const el of document.querySelectorAll('button, [role="button"], a')) {
      if (el.getClientRects().length === 0 || !drawnAsButton(el)) continue;
      let text = '';
      const boxes: (DOMRect | null)[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (
        let node = walker.nextNode() as Text | null;
        node;
        node = walker.nextNode() as Text | null
      ) {
        const parent = node.parentElement!.getBoundingClientRect();
        const drawn = parent.width > 1 && parent.height > 1;
        for (let i = 0; i < node.data.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const box = range.getClientRects()[0];
          boxes.push(drawn && box && box.width > 0 && /\S/.test(node.data[i]!) ? box : null);
        }
        text += node.data;
      }
      const starts = new Set([...words.segment(text)].map((word) => word.index));
      const lines: string[] = [];
      let line = '';
      let inside = false;
      let last: DOMRect | null = null;
      for (let i = 0; i < text.length; i++) {
        const box = boxes[i];
        if (box && last && box.top > last.top + last.height / 2) {
          lines.push(line);
          line = '';
          if (!starts.has(i) && /\S/.test(text[i - 1]!)) inside = true;
        }
        if (box) last = box;
        line += text[i];
      }
      lines.push(line);
      if (inside) broken.push(lines.map((line) => line.trim()).join(' / '));
    }
    return broken;
  });
}

test('no button’s label breaks inside a word at 320 and 360 px', async ({ page }) => {
  const routes = [
    '/service-plans/confirm?plan=monthly',
    '/login',
    '/sign-up',
    await paywalledPost(page.request),
  ];
  for (const route of routes) {
    await resizeTo(page, 360, 800);
    await page.goto(route);
    for (const width of [360, 320]) {
      await resizeTo(page, width, 800);
      const where = `${route} at ${width}px`;
      expect.soft(await labelsBrokenInsideAWord(page), where).toEqual([]);
      expect.soft(await sidewaysScroll(page), where).toBeLessThanOrEqual(0);
    }
  }
  // The paywall's plan buttons were measured: their labels are the longest of these pages.
  await expect(page.getByRole('link', { name: /月額プランで申し込む/ })).toBeVisible();
});

/** A post open to everyone whose body has a heading followed by text and two paragraphs. */
async function publicPostWithHeadings(request: APIRequestContext): Promise<string> {
  const key = (await admin('create-api-key', '--name', 'e2e layout', '--permissions', 'GET')).at(
    -1,
  )!;
  const res = await request.get(
    '/api/v1/posts?limit=100&fields=id,body&filters=isPublicPreview[equals]true',
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  expect(res.status()).toBe(200);
  const { contents } = (await res.json()) as { contents: { id: string; body: string }[] };
  const post = contents.find(
    (p) =>
      /<p>[\s\S]*?<\/p>\s*<h2[^>]*>[\s\S]*?<\/h2>\s*<p/.test(p.body) && /<\/p>\s*<p/.test(p.body),
  );
  expect(post, 'the demo content has a public post with headings').toBeTruthy();
  return post!.id;
}

test('article text has space between paragraphs, and more above a heading than below', async ({
  page,
}) => {
  const id = await publicPostWithHeadings(page.request);
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/posts/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const gaps = await page.getByRole('main').evaluate((main) => {
      const blocks = Array.from(main.querySelectorAll('h2, p'));
      const heading = blocks.find(
        (el) =>
          el.tagName === 'H2' &&
          el.previousElementSibling?.tagName === 'P' &&
          el.nextElementSibling?.tagName === 'P',
      )!;
      const paragraph = Array.from(heading.parentElement!.children).find(
        (el) => el.tagName === 'P' && el.nextElementSibling?.tagName === 'P',
      )!;
      const box = (el: Element) => el.getBoundingClientRect();
      return {
        betweenParagraphs: box(paragraph.nextElementSibling!).top - box(paragraph).bottom,
        aboveHeading: box(heading).top - box(heading.previousElementSibling!).bottom,
        belowHeading: box(heading.nextElementSibling!).top - box(heading).bottom,
      };
    });
    expect(gaps.betweenParagraphs, `between paragraphs at ${width}px`).toBeGreaterThan(0);
    expect(gaps.belowHeading, `under a heading at ${width}px`).toBeGreaterThan(0);
    expect(gaps.aboveHeading, `above a heading at ${width}px`).toBeGreaterThan(gaps.belowHeading);
  }
});

test('an anonymous bookmark click says why, and sign-in brings the reader back', async ({
  page,
}) => {
  const email = await createMember('bookmark');
  await page.setViewportSize({ width: 390, height: 844 });
  const post = await firstItem(page, '/posts', '/posts/');
  await page.goto(post);
  // Once the auth state has loaded, the click asks instead of saving.
  await expect(page.getByRole('banner').getByRole('link', { name: 'ログイン' })).toBeVisible();
  const button = page
    .getByRole('main')
    .getByRole('button', { name: /^ブックマーク/ })
    .first();

  // By keyboard: the dialog opens, says why, and Escape gives the focus back.
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: PROMPT });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('無料の会員登録');
  const back = encodeURIComponent(post);
  await expect(dialog.getByRole('link', { name: '無料で会員登録' })).toHaveAttribute(
    'href',
    `/sign-up?next=${back}`,
  );
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-pressed', 'false');

  // By pointer: ログイン leads to the login page and back to the post, nothing saved.
  await button.click();
  await dialog.getByRole('link', { name: 'ログイン' }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${escapeRegExp(back)}$`));
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(new RegExp(`${escapeRegExp(post)}$`));
  await expect(
    page
      .getByRole('main')
      .getByRole('button', { name: /^ブックマーク/ })
      .first(),
  ).toHaveAttribute('aria-pressed', 'false');
});

test('on cards the bookmark sits in one place: over the cover, at its top right', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/posts');
  const card = page.getByRole('main').getByRole('article').first();
  const button = card.getByRole('button', { name: /^ブックマーク/ });
  const [cardBox, buttonBox, titleBox] = await Promise.all([
    card.boundingBox(),
    button.boundingBox(),
    card.getByRole('heading').boundingBox(),
  ]);
  // Above the title, against the card's right edge.
  expect(buttonBox!.y + buttonBox!.height).toBeLessThan(titleBox!.y);
  expect(cardBox!.x + cardBox!.width - (buttonBox!.x + buttonBox!.width)).toBeLessThan(24);
});
