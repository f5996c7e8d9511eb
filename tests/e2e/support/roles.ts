import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { E2E_ROOT } from './settings';

/**
 * The shared signed-in readers and staff: tests/e2e/auth.setup.ts creates them and signs each in
 * once, saving the browser state (cookies) per role; a test that only needs "a signed-in X"
 * starts from that state instead of signing in through the form. Tests that sign out, change a
 * password, delete an account, revoke sessions or change a plan use users of their own.
 */

export const ROLE_PASSWORD = 'Yakumo-no-Niwa-2026';

export const ROLES = {
  /** A free member. */
  member: { email: 'role-member@example.jp', name: '会員 みどり', role: 'member', plan: null },
  /** A member on the paid plan. */
  paid: {
    email: 'role-paid@example.jp',
    name: '有料 あおい',
    role: 'member',
    plan: 'monthly',
  },
  editor: { email: 'role-editor@example.jp', name: '編集 さくら', role: 'editor', plan: null },
  admin: { email: 'role-admin@example.jp', name: '管理 かえで', role: 'admin', plan: null },
} as const;
export type Role = keyof typeof ROLES;

const STATE_DIR = path.join(E2E_ROOT, '.tmp/e2e-auth');

/** Where the setup saves a role's browser state. */
export function roleStatePath(role: Role): string {
  return path.join(STATE_DIR, `${role}.json`);
}

type SavedState = { cookies: Parameters<BrowserContext['addCookies']>[0] };

/** Signs the page's browser context in as the role (its saved cookies; the page is not moved). */
export async function signInAs(page: Page, role: Role): Promise<void> {
  const saved = JSON.parse(fs.readFileSync(roleStatePath(role), 'utf8')) as SavedState;
  await page.context().addCookies(saved.cookies);
}

/** A page of a fresh browser context (axe can analyse it), signed in as the role. */
export async function pageAs(browser: Browser, role: Role): Promise<Page> {
  const context = await browser.newContext({ storageState: roleStatePath(role) });
  return context.newPage();
}
