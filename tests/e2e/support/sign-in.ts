import { type Browser, type Page, expect } from '@playwright/test';

/** Fills in and sends the login form the page shows. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'ログイン' }).click();
}

/** Signs in through /login and waits for the home page it leads to. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(/\/$/);
}

/** A page of a fresh browser context (axe can analyse it), signed in through /login. */
export async function signedInPage(
  browser: Browser,
  email: string,
  password: string,
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, password);
  return page;
}
