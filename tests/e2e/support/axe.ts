import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';

/** The widths every screen is checked at: a small phone and a desktop. */
export const CHECK_WIDTHS = [360, 1280] as const;

/**
 * The axe violations on the page as it is now, one line each. Every rule runs, with two savings:
 * axe builds only the violations list (`resultTypes`, its documented speed option: the passes,
 * incomplete and inapplicable lists nobody reads are most of its work on a long page), and a page
 * without frames is analysed in place with `axe.run` (legacy mode) instead of by frame and then
 * again in a new blank page, which halves the time. A page with frames keeps the per-frame run,
 * which also reaches cross-origin frames.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(page.frames().length === 1)
    .analyze();
  return results.violations.map((v) => `${page.url()} ${v.id}: ${v.help} (${v.nodes.length})`);
}

/**
 * No axe violation on the page as it is now. The page must come from `browser.newContext()` (or
 * the `page` fixture): AxeBuilder cannot analyse pages of the default context.
 */
export async function expectNoAxeViolations(page: Page, where?: string): Promise<void> {
  expect(await axeViolations(page), where).toEqual([]);
}

/** How far the page scrolls sideways (0 when it fits the viewport). */
export const sidewaysScroll = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * Resizes the viewport and waits until the page has laid itself out at the new size: the window
 * reports the width and two frames have been drawn since (resize observers and anything a
 * resize schedules have run). The page is not reloaded.
 */
export async function resizeTo(page: Page, width: number, height = 900): Promise<void> {
  const now = page.viewportSize();
  if (now?.width === width && now.height === height) return;
  await page.setViewportSize({ width, height });
  await page.waitForFunction((w) => window.innerWidth === w, width);
  await page.evaluate(
    () =>
      new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
}

type WidthOptions = { widths?: readonly number[]; height?: number; scroll?: boolean };

/**
 * The page as it is now, at each width in turn (resized in place, never reloaded): it does not
 * scroll sideways and axe finds no violation. Resizing instead of navigating again checks the same
 * state (a form's errors, a new key shown) at every width for one navigation.
 */
export async function expectAccessibleAtWidths(
  page: Page,
  where = page.url(),
  { widths = CHECK_WIDTHS, height = 900, scroll = true }: WidthOptions = {},
): Promise<void> {
  for (const width of widths) {
    await resizeTo(page, width, height);
    if (scroll) expect(await sidewaysScroll(page), `${where} at ${width}px`).toBeLessThanOrEqual(0);
    expect(await axeViolations(page), `${where} at ${width}px`).toEqual([]);
  }
}

/**
 * Each screen, opened once at the first width: `ready` waits for what the test needs to see
 * (by default its level-1 heading), then {@link expectAccessibleAtWidths}.
 */
export async function expectScreensAccessible(
  page: Page,
  paths: readonly string[],
  {
    ready = (p: Page) => expect(p.getByRole('heading', { level: 1 })).toBeVisible(),
    ...options
  }: WidthOptions & { ready?: (page: Page) => Promise<void> } = {},
): Promise<void> {
  const widths = options.widths ?? CHECK_WIDTHS;
  for (const path of paths) {
    await resizeTo(page, widths[0]!, options.height);
    await page.goto(path);
    await ready(page);
    await expectAccessibleAtWidths(page, path, options);
  }
}
