import {
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
  expect,
} from '@playwright/test';

/**
 * The password sign-in form of /login (the page also has the e-mail link form, with an address
 * field of its own).
 */
export const passwordLoginForm = (page: Page): Locator =>
  page.locator('form').filter({ has: page.getByLabel('パスワード', { exact: true }) });

/** Fills in and sends the login form the page shows. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  const form = passwordLoginForm(page);
  await form.getByLabel('メールアドレス').fill(email);
  await form.getByLabel('パスワード', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'ログイン' }).click();
}

/** Signs in through /login and waits for the home page it leads to. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(/\/$/);
}

/**
 * Signs the browser context in through the endpoint the login form posts to, without showing a
 * page: for specs about what a signed-in person sees, not about signing in (those use signIn).
 */
export async function signInByApi(
  context: BrowserContext,
  email: string,
  password: string,
): Promise<void> {
  const answer = await context.request.post('/api/account/sign-in', {
    headers: { accept: 'application/json' },
    form: { email, password },
  });
  expect(answer.ok(), `${email} signs in`).toBe(true);
}

/**
 * A page of a fresh browser context (axe can analyse it), signed in (signInByApi). The page is
 * blank: the test opens what it needs.
 */
export async function signedInPage(
  browser: Browser,
  email: string,
  password: string,
): Promise<Page> {
  const context = await browser.newContext();
  await signInByApi(context, email, password);
  return context.newPage();
}
