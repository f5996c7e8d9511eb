import { type Locator, type Page, expect } from '@playwright/test';

/**
 * Layout shifts as Chromium reports them (the Layout Instability API, whose entries CLS adds up):
 * every shift of the page since it started loading, not caused by input, with what moved.
 */
export type LayoutShifts = { total: number; shifts: { value: number; moved: string[] }[] };

/**
 * Opens `path` and answers its layout shifts once the page is complete: `ready` (what comes last,
 * such as the account control that arrives with the auth state) is visible, the fonts are in,
 * and two frames have been drawn since, so that any shift they caused has been reported.
 */
export async function layoutShiftsOf(
  page: Page,
  path: string,
  ready: (page: Page) => Locator[],
): Promise<LayoutShifts> {
  await page.goto(path);
  for (const locator of ready(page)) await expect(locator).toBeVisible();
  return page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    type Shift = PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    };
    // A buffered observer is handed the page's earlier entries at once (takeRecords).
    const observer = new PerformanceObserver(() => undefined);
    observer.observe({ type: 'layout-shift', buffered: true });
    const entries = observer.takeRecords() as Shift[];
    observer.disconnect();
    const describe = (node: Node | null | undefined) =>
      node instanceof Element
        ? `${node.tagName.toLowerCase()}${node.className ? `.${String(node.className).split(' ').join('.')}` : ''}`
        : String(node?.nodeName ?? '?');
    const shifts = entries
      .filter((entry) => !entry.hadRecentInput)
      .map((entry) => ({
        value: entry.value,
        moved: (entry.sources ?? []).map((source) => describe(source.node)),
      }));
    return { total: shifts.reduce((sum, shift) => sum + shift.value, 0), shifts };
  });
}
