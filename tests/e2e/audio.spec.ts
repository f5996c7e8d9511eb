import { type APIRequestContext, expect, test } from '@playwright/test';
import { axeViolations } from './support/axe';
import { admin } from './support/admin';
import { signInAs } from './support/roles';

// The audio area: the /audios list, reached from the header; an episode page whose player comes
// first for a paid listener and works with the keyboard; the paywall, and no file, for others.

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** A members' episode that has a file (the demo ids are not fixed). */
async function membersEpisode(request: APIRequestContext): Promise<string> {
  const key = (await admin('create-api-key', '--name', 'e2e audio', '--permissions', 'GET')).at(
    -1,
  )!;
  const filters = encodeURIComponent('isPublicPreview[not_equals]true[and]audioFile[exists]');
  const res = await request.get(`/api/v1/audios?limit=1&fields=id&filters=${filters}`, {
    headers: { 'X-MICROCMS-API-KEY': key },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { contents: { id: string }[] }).contents[0]!.id;
}

test('/audios is in the header, lists the episodes and every episode link answers', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: '音声', exact: true })
    .click();
  await expect(page).toHaveURL(/\/audios$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('音声');
  await expect(page).toHaveTitle('音声 | AXIS Membership');

  const links = await page
    .locator('main a[href^="/audios/"]')
    .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
  const episodes = [...new Set(links)];
  expect(episodes.length).toBeGreaterThan(0);
  for (const href of episodes) expect((await page.request.get(href)).status(), href).toBe(200);
  expect(await axeViolations(page)).toEqual([]);

  // A page past the last one says so rather than showing an empty grid.
  await page.goto('/audios?page=999');
  await expect(page.getByRole('status')).toContainText('このページに音声はありません');
});

test('the phone menu leads to /audios', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/');
  await page.getByRole('button', { name: 'メニュー' }).click();
  await page
    .getByRole('navigation', { name: 'メニュー', exact: true })
    .getByRole('link', { name: /^音声/ })
    .click();
  await expect(page).toHaveURL(/\/audios$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('音声');
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`a paid listener at ${viewport.width}×${viewport.height} gets the player first, plays it, seeks with the keys and opens the key help`, async ({
    page,
    request,
  }) => {
    const id = await membersEpisode(request);
    await signInAs(page, 'paid');
    await page.setViewportSize(viewport);
    await page.goto(`/audios/${id}`);

    const player = page.getByRole('group', { name: /^音声プレーヤー: / });
    const play = player.getByRole('button', { name: '再生' });
    const seek = player.getByRole('slider', { name: '再生位置' });
    // Title and player on the first screen; the description and transcript come after.
    await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
    await expect(play).toBeInViewport({ ratio: 1 });
    await expect(seek).toBeInViewport({ ratio: 1 });
    await expect(player.getByRole('combobox', { name: '再生速度' })).toBeInViewport();
    const box = (await player.boundingBox())!;
    const transcript = page.getByRole('heading', { level: 2, name: '書き起こし' });
    expect((await transcript.boundingBox())!.y).toBeGreaterThan(box.y + box.height);

    // The page's own button plays the file (a click is the gesture autoplay rules ask for).
    const audio = page.locator('audio');
    await expect(audio).toHaveAttribute('src', /\?exp=\d+&sig=/);
    await player.getByRole('button', { name: 'ミュート' }).click();
    await expect(player.getByRole('button', { name: 'ミュート' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await play.click();
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.paused)).toBe(false);
    await player.getByRole('button', { name: '一時停止' }).click();
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.paused)).toBe(true);

    // The seek bar moves with the keys and says where it is in Japanese.
    await seek.focus();
    await page.keyboard.press('Home');
    await expect(seek).toHaveAttribute('aria-valuetext', /^0秒 \/ \S+/);
    expect(await audio.evaluate((el: HTMLAudioElement) => el.currentTime)).toBe(0);
    await page.keyboard.press('ArrowRight');
    await expect(seek).not.toHaveAttribute('aria-valuetext', /^0秒/);
    expect(await audio.evaluate((el: HTMLAudioElement) => el.currentTime)).toBeGreaterThan(0);

    // The speed applies to the element.
    await player.getByRole('combobox', { name: '再生速度' }).selectOption('1.5');
    expect(await audio.evaluate((el: HTMLAudioElement) => el.playbackRate)).toBe(1.5);

    // The key help opens from the keyboard and lists the keys in readable text.
    const summary = player.locator('summary', { hasText: 'キーボード操作' });
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(player.locator('details')).toHaveAttribute('open', '');
    const help = player.locator('details dl').first();
    await expect(help.getByText('再生・一時停止')).toBeVisible();
    await expect(help.getByText('30秒進む')).toBeVisible();
    const size = await help
      .locator('dd')
      .first()
      .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    expect(size).toBeGreaterThanOrEqual(14);

    expect(await axeViolations(page)).toEqual([]);
  });
}

test('an anonymous visitor sees the episode and the paywall, and no audio file', async ({
  page,
  request,
}) => {
  const id = await membersEpisode(request);
  const res = await page.goto(`/audios/${id}`);
  expect(res?.status()).toBe(200);
  expect(await res!.text()).not.toContain('/media/protected/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^この音声は.*会員限定です$/ })).toBeVisible();
  await expect(page.getByRole('group', { name: /^音声プレーヤー/ })).toHaveCount(0);
  await expect(page.locator('audio')).toHaveCount(0);
  await expect(page.locator('audio source, audio[src]')).toHaveCount(0);
  expect(await axeViolations(page)).toEqual([]);
});
