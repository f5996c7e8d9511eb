import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';
import { signInByApi, signedInPage } from './support/sign-in';

type Post = { id: string; title: string; body: string };

async function readPosts(request: APIRequestContext, filters: string): Promise<Post[]> {
  const key = (await admin('create-api-key', '--name', 'e2e post', '--permissions', 'GET')).at(-1)!;
  const response = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent(filters)}&limit=2&depth=0`,
    {
      headers: { 'X-MICROCMS-API-KEY': key },
    },
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { contents: Post[] }).contents;
}

/** The text of the body's last paragraph: beyond any lead. */
function lastParagraph(html: string): string {
  const paragraphs = [...html.matchAll(/<p>([^<]{20,})<\/p>/g)].map((m) => m[1]!);
  return paragraphs.at(-1)!.slice(0, 30);
}

test("a members' post shows its lead and a call to sign up, and never sends the rest", async ({
  page,
  request,
}) => {
  const [post] = await readPosts(request, 'isPublicPreview[not_equals]true');
  const hidden = lastParagraph(post!.body);
  const response = await page.goto(`/posts/${post!.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(post!.title);
  await expect(page.getByRole('heading', { name: 'この記事は会員限定です' })).toBeVisible();
  await expect(page.getByRole('link', { name: '無料で会員登録' })).toHaveAttribute(
    'href',
    `/sign-up?next=${encodeURIComponent(`/posts/${post!.id}`)}`,
  );
  // Neither the HTML nor the RSC payload carries the gated part.
  expect(await response!.text()).not.toContain(hidden);
  const rsc = await request.get(`/posts/${post!.id}`, { headers: { RSC: '1' } });
  expect(await rsc.text()).not.toContain(hidden);
  await expect(page).toHaveTitle(`${post!.title} | AXIS Membership`);
});

test('a public-preview post is readable in full by everyone', async ({ page, request }) => {
  const [post] = await readPosts(request, 'isPublicPreview[equals]true');
  await page.goto(`/posts/${post!.id}`);
  await expect(page.getByText(lastParagraph(post!.body))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'この記事は会員限定です' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('an unknown post answers the Japanese 404 page', async ({ page }) => {
  expect((await page.goto('/posts/no-such-post'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません');
});

test('a signed-in free member reads the 3 newest members’ posts; a complimentary plan opens every post', async ({
  page,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e paywall', '--permissions', 'GET')).at(
    -1,
  )!;
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=5&depth=0&fields=id,body&orders=-publishedAt`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  const members = ((await list.json()) as { contents: Post[] }).contents;
  const freePlan = members[0]!;
  const older = members[4]!;
  const email = `paywall-${Date.now()}@example.jp`;
  await admin('create-user', '--email', email, '--password', 'kami-hikoki-13');
  await signInByApi(page.context(), email, 'kami-hikoki-13');

  await page.goto(`/posts/${freePlan.id}`);
  await expect(page.getByText(lastParagraph(freePlan.body))).toBeVisible();
  const closed = await page.goto(`/posts/${older.id}`);
  expect(await closed!.text()).not.toContain(lastParagraph(older.body));
  await expect(
    page.getByText('有料プランに登録すると、すべての記事を全文お読みいただけます。'),
  ).toBeVisible();

  await admin('grant-plan', '--email', email, '--plan', 'monthly');
  await page.goto(`/posts/${older.id}`);
  await expect(page.getByText(lastParagraph(older.body))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'この記事は会員限定です' })).toHaveCount(0);
});

test('法人プラン: an address at the organisation’s domain reads every post; removed by its admin, the paywall at once', async ({
  page,
  browser,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e orgs', '--permissions', 'GET')).at(-1)!;
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=5&depth=0&fields=id,body&orders=-publishedAt`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  // Past the free plan's 3 newest: only a paid reader reads it.
  const post = ((await list.json()) as { contents: Post[] }).contents[4]!;
  const stamp = Date.now();
  const domain = `corp-${stamp}.example`;
  const member = `staff@${domain}`;
  const boss = `boss-${stamp}@example.jp`;
  const password = 'kaisha-no-hondana-5';
  const id = (
    await admin(
      'org-create',
      '--name',
      `E2E商事${stamp}`,
      '--seats',
      '1',
      '--domain',
      domain,
      '--billing',
      'invoice',
    )
  ).at(-1)!;
  await admin('create-user', '--email', member, '--password', password);
  await admin('create-user', '--email', boss, '--password', password);
  await admin('org-set-admin', '--org', id, '--email', boss);

  await signInByApi(page.context(), member, password);
  const opened = await page.goto(`/posts/${post.id}`);
  expect(await opened!.text()).toContain(lastParagraph(post.body));

  const admin2 = await signedInPage(browser, boss, password);
  await admin2.goto('/account/organization');
  await expect(admin2.getByText(`E2E商事${stamp}`)).toBeVisible();
  await admin2.getByRole('button', { name: `${member} を外す` }).click();
  await expect(admin2.getByText(/メンバーを外しました/)).toBeVisible();

  // The member's audience cookie still says "paid" for its minute: it is not trusted any more.
  const closed = await page.goto(`/posts/${post.id}`);
  expect(await closed!.text()).not.toContain(lastParagraph(post.body));
  await admin2.context().close();
});

/**
 * Why a part of the page is not seen whole, or null: an ancestor that fades it (a mask) or clips
 * it (an overflow that is not visible, with the part reaching beyond the ancestor's box).
 */
async function hiddenBy(part: Locator): Promise<string | null> {
  return part.evaluate((element) => {
    const box = element.getBoundingClientRect();
    for (let at = element.parentElement; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      const mask = style.maskImage || style.getPropertyValue('-webkit-mask-image');
      if (mask && mask !== 'none') return `faded by <${at.tagName.toLowerCase()} ${at.className}>`;
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
      const outer = at.getBoundingClientRect();
      if (clips && at !== document.body && at !== document.documentElement)
        if (box.top < outer.top - 1 || box.bottom > outer.bottom + 1)
          return `clipped by <${at.tagName.toLowerCase()} ${at.className}>`;
    }
    return null;
  });
}

test('a visitor sees the whole lead above the divider: a figure, an embed and a paragraph', async ({
  page,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e lead', '--permissions', 'GET,POST')).at(
    -1,
  )!;
  const stamp = Date.now();
  const created = await request.post('/api/v1/posts', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: {
      title: `リードの長い記事 ${stamp}`,
      body: [
        '<p>リードの最初の段落です。</p>',
        '<figure><img src="/og-default.png" alt="リードの図版" width="1200" height="630"><figcaption>リードの図版の説明</figcaption></figure>',
        '<iframe src="https://www.youtube.com/embed/LeadVideo01" title="YouTube"></iframe>',
        `<p>LEADEND${stamp} 区切り線の直前の段落です。</p>`,
        '<hr data-members-divider>',
        `<p>BELOW${stamp} 会員だけの本文です。</p>`,
      ].join(''),
      isPublicPreview: false,
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // The editor's label: 「この線より上が、訪問者に見える部分です」 (docs/decisions/029-divider-is-the-lead.md).
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/posts/${id}`);
    await expect(
      page.getByRole('heading', { name: /この記事は(有料)?会員限定です/ }),
    ).toBeVisible();
    const parts = [
      page.getByRole('img', { name: 'リードの図版' }),
      page.getByText('リードの図版の説明'),
      page.getByRole('link', { name: 'YouTubeの動画を再生する' }),
      page.getByText(`LEADEND${stamp}`),
    ];
    for (const part of parts) {
      await expect(part).toBeVisible();
      expect(await hiddenBy(part), `at ${width} px`).toBeNull();
    }
    await expect(page.getByText(`BELOW${stamp}`)).toHaveCount(0);
  }
});
