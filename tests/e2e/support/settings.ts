import path from 'node:path';

/** Where the end-to-end server runs: shared by the Playwright config and the specs. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_DATA_DIR = path.resolve(import.meta.dirname, '../../../.tmp/e2e-data');
export const E2E_ROOT = path.resolve(import.meta.dirname, '../../..');
/**
 * The e2e server's SITE_URL: the address the browser uses, as in production. The billing
 * sandbox's hosted pages and redirects live at SITE_URL, so it must be where the site answers.
 */
export const E2E_SITE_URL = process.env.SITE_URL ?? `http://127.0.0.1:${E2E_PORT}`;
