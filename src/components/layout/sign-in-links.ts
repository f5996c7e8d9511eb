/**
 * Links to sign in or sign up that bring the reader back to `here` (a path with its query).
 * The account screens themselves are not a place to come back to.
 */
const ACCOUNT_SCREENS = /^\/(login|sign-up|account)([/?#]|$)/;

function withNext(page: string, here: string | null | undefined): string {
  // A path of this site only (the login page checks `next` again: safe-next.ts).
  if (!here?.startsWith('/') || here.startsWith('//') || ACCOUNT_SCREENS.test(here)) return page;
  return `${page}?next=${encodeURIComponent(here)}`;
}

export const signInHref = (here: string | null | undefined) => withNext('/login', here);
export const signUpHref = (here: string | null | undefined) => withNext('/sign-up', here);
