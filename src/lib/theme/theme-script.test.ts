import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { THEME_SCRIPT, THEME_STORAGE_KEY, applyThemeChoice, themeChoiceOf } from './theme-script';

/** Runs the head's script against a stored value (or a storage that throws) and a bare <html>. */
function runScript(stored: string | null | Error): Record<string, string> {
  const dataset: Record<string, string> = {};
  const localStorage = {
    getItem(key: string) {
      if (stored instanceof Error) throw stored;
      return key === THEME_STORAGE_KEY ? stored : null;
    },
  };
  runInNewContext(THEME_SCRIPT, { localStorage, document: { documentElement: { dataset } } });
  return dataset;
}

describe('the colour scheme script', () => {
  it('puts a stored light or dark choice on <html>', () => {
    expect(runScript('dark')).toEqual({ theme: 'dark' });
    expect(runScript('light')).toEqual({ theme: 'light' });
  });

  it('leaves the OS’s scheme for nothing stored, a foreign value or a refused storage', () => {
    expect(runScript(null)).toEqual({});
    expect(runScript('"><script>')).toEqual({});
    expect(runScript(new Error('SecurityError'))).toEqual({});
  });

  it('reads a choice as the switch does, and applies it as the script does', () => {
    expect(themeChoiceOf('dark')).toBe('dark');
    expect(themeChoiceOf(undefined)).toBe('system');
    expect(themeChoiceOf('sepia')).toBe('system');
    const root = { dataset: {} as Record<string, string> } as unknown as HTMLElement;
    applyThemeChoice(root, 'light');
    expect(root.dataset.theme).toBe('light');
    applyThemeChoice(root, 'system');
    expect(root.dataset.theme).toBeUndefined();
  });
});
