/**
 * The reader's colour scheme (docs/decisions/036-dark-mode-sharing-touch.md). Pages are cached
 * per audience (docs/decisions/007-pages-per-audience.md), so the HTML never varies with the
 * choice: it is kept in localStorage and put on <html> as `data-theme` by THEME_SCRIPT, inline
 * at the top of <head>, before anything is painted. Without the attribute the CSS follows the
 * OS (`prefers-color-scheme`), which is also what a browser without JavaScript gets.
 */

export const THEME_STORAGE_KEY = 'axis-theme';

export const THEME_CHOICES = ['light', 'dark', 'system'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** A stored value as a choice: anything else (nothing, an old or foreign value) is the OS's. */
export function themeChoiceOf(stored: string | null | undefined): ThemeChoice {
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/**
 * The inline script. Its text is constant, so the page CSP allows it by hash
 * (pagePolicies in src/server/features/front/csp.ts) on fresh and cached pages alike; storage may be
 * refused (a private window, a blocked site), in which case the OS's scheme stays.
 */
export const THEME_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

/** Puts a choice on <html> as the head's script does ('system': the attribute removed). */
export function applyThemeChoice(root: HTMLElement, choice: ThemeChoice): void {
  if (choice === 'system') delete root.dataset.theme;
  else root.dataset.theme = choice;
}
