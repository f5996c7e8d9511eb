import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';

/**
 * No axe violation on the page as it is now. The page must come from `browser.newContext()`:
 * AxeBuilder cannot analyse pages of the default context.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map((v) => `${page.url()} ${v.id}: ${v.help} (${v.nodes.length})`),
  ).toEqual([]);
}
