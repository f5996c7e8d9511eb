'use client';

import { useId, useSyncExternalStore } from 'react';
import styles from './analytics-opt-out.module.css';
import {
  OPT_OUT_EVENT,
  OPT_OUT_KEY,
  browserAsksNotToTrack,
  canStoreSettings,
  isOptedOut,
  setOptedOut,
} from './beacon';
import { listen } from '@/components/ui/listen';

type MeasureState = 'measured' | 'opted-out' | 'browser-refuses' | 'no-storage';

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === OPT_OUT_KEY || event.key === null) onChange();
  };
  return listen(window, { storage: onStorage, [OPT_OUT_EVENT]: onChange });
}

function currentState(): MeasureState {
  if (browserAsksNotToTrack()) return 'browser-refuses';
  if (!canStoreSettings()) return 'no-storage';
  return isOptedOut() ? 'opted-out' : 'measured';
}

/** The setting lives in the browser, so the server (and a page without JavaScript) shows nothing. */
const serverState = (): MeasureState | null => null;

/**
 * The footer's opt-out of the first-party page-view measurement (./beacon.ts). The choice is
 * kept in this browser's localStorage only; Do Not Track and Global Privacy Control already
 * stop the measurement, which the control then says instead of offering a choice.
 */
export function AnalyticsOptOut() {
  const state = useSyncExternalStore(subscribe, currentState, serverState);
  const id = useId();
  if (state === null) return null;
  return (
    <div className={styles.optOut}>
      <h2 className={styles.heading}>閲覧の計測</h2>
      {state === 'browser-refuses' || state === 'no-storage' ? (
        <p className={styles.note}>
          {state === 'browser-refuses'
            ? 'ブラウザの「トラッキング拒否」設定が有効なため、このブラウザでの閲覧は計測していません。'
            : 'このブラウザでは設定を保存できないため、閲覧は計測していません。'}
        </p>
      ) : (
        <>
          <div className={styles.control}>
            <input
              id={`${id}-checkbox`}
              type="checkbox"
              className={styles.checkbox}
              checked={state === 'opted-out'}
              onChange={(event) => setOptedOut(event.currentTarget.checked)}
              aria-describedby={`${id}-note`}
            />
            <label htmlFor={`${id}-checkbox`} className={styles.label}>
              このブラウザでの閲覧の計測を停止する
            </label>
          </div>
          <p id={`${id}-note`} className={styles.note}>
            サイト改善のため、閲覧したページを個人を特定しない形で記録しています（Cookie
            は使いません）。停止すると、このブラウザからは記録を送りません。設定はこのブラウザにだけ保存されます。
          </p>
        </>
      )}
    </div>
  );
}
