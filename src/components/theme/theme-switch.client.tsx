'use client';

import { useSyncExternalStore } from 'react';
import { listen } from '@/components/ui/listen';
import {
  THEME_STORAGE_KEY,
  type ThemeChoice,
  applyThemeChoice,
  themeChoiceOf,
} from '@/lib/theme/theme-script';
import styles from './theme-switch.module.css';

/** Another tab's choice, and this tab's own (a storage event fires only in the others). */
const CHANGE_EVENT = 'axis-theme-change';

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    applyThemeChoice(document.documentElement, themeChoiceOf(event.newValue));
    onChange();
  };
  return listen(window, { storage: onStorage, [CHANGE_EVENT]: onChange });
}

function currentChoice(): ThemeChoice {
  // What the head's script applied, so a refused storage still shows the scheme in use.
  return themeChoiceOf(document.documentElement.dataset.theme);
}

/** The choice lives in the browser: the server (and a page without JavaScript) shows nothing. */
const serverChoice = (): ThemeChoice | null => null;

const OPTIONS: readonly { value: ThemeChoice; label: string }[] = [
  { value: 'light', label: 'ライト' },
  { value: 'dark', label: 'ダーク' },
  { value: 'system', label: '端末に合わせる' },
];

function choose(choice: ThemeChoice) {
  applyThemeChoice(document.documentElement, choice);
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused (a private window): the choice holds for this page only.
  }
  window.dispatchEvent(new Event(CHANGE_EVENT));
}

/**
 * The footer's 「画面の配色」: light, dark or the device's (docs/decisions/036-dark-mode-sharing-touch.md).
 * Radio buttons, so a screen reader hears one group with its choice and arrows move within it.
 */
export function ThemeSwitch() {
  const choice = useSyncExternalStore(subscribe, currentChoice, serverChoice);
  if (choice === null) return null;
  return (
    <fieldset className={styles.switch}>
      <legend className={styles.legend}>画面の配色</legend>
      <div className={styles.options}>
        {OPTIONS.map((option) => (
          <label key={option.value} className={styles.option}>
            <input
              type="radio"
              name="theme"
              value={option.value}
              className={styles.radio}
              checked={choice === option.value}
              onChange={() => choose(option.value)}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
