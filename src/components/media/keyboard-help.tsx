import { KeyAlternatives } from '@/components/ui/key-alternatives';
import { KEY_HELP, SEEK_KEY_HELP } from './audio-keys';
import styles from './audio-player.module.css';

type Entry = { keys: readonly string[]; action: string };

function KeyList({ entries }: { entries: readonly Entry[] }) {
  return (
    <dl className={styles.keyList}>
      {entries.map(({ keys, action }) => (
        <div key={action} className={styles.keyRow}>
          <dt>
            <KeyAlternatives
              keys={keys}
              or={<span className={styles.keyOr}>または</span>}
              kbdClassName={styles.key}
            />
          </dt>
          <dd>{action}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The player's keys, behind a disclosure that works without JavaScript. */
export function KeyboardHelp() {
  return (
    <details className={styles.help}>
      <summary className={styles.helpSummary}>キーボード操作</summary>
      <div className={styles.helpBody}>
        <p>プレーヤーのボタンなどにフォーカスがあるときに使えます。</p>
        <KeyList entries={KEY_HELP} />
        <p className={styles.helpHeading}>再生位置のスライダーで</p>
        <KeyList entries={SEEK_KEY_HELP} />
      </div>
    </details>
  );
}
