import { type Page, expect } from '@playwright/test';

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
