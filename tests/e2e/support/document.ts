import type { APIResponse, Page } from '@playwright/test';

/**
 * What the server answers the page's browser when it opens `path` (its cookies, the headers of a
 * navigation, redirects followed), without Chromium drawing the answer. For sweeps that check who
 * gets a 404 for which screens: the status and the HTML are what they assert, and laying out
 * dozens of error pages was a large part of the suite's CPU.
 */
export function openDocument(page: Page, path: string): Promise<APIResponse> {
  return page.request.get(path, {
    headers: {
      accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      'sec-fetch-dest': 'document',
      'sec-fetch-mode': 'navigate',
      'sec-fetch-site': 'none',
      'upgrade-insecure-requests': '1',
    },
  });
}
