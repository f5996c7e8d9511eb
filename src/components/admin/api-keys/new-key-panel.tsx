import { CopyTextButton } from '@/components/admin/copy-text-button.client';
import styles from './api-keys.module.css';

const KEY_ID = 'new-api-key';

/** The key just created, shown this once (it is stored only as a hash), with how to use it. */
export function NewKeyPanel({ name, apiKey }: { name: string; apiKey: string }) {
  return (
    <section className={styles.newKey} aria-labelledby="new-key-title">
      <h2 id="new-key-title" className={styles.newKeyTitle}>
        新しいAPIキー「{name}」
      </h2>
      <p className={styles.warning}>
        <strong>このキーが表示されるのは今回だけです。</strong>
        ページを離れたり再読み込みしたりすると、二度と表示できません。今すぐコピーして、パスワード管理ツールやサーバーの環境変数など安全な場所に保管してください。
      </p>
      <div className={styles.keyBox}>
        <span className={styles.keyLabel}>キー</span>
        <code id={KEY_ID} className={styles.key}>
          {apiKey}
        </code>
      </div>
      <CopyTextButton
        targetId={KEY_ID}
        what="キー"
        primary
        className={styles.copy}
        statusClassName={styles.copyStatus}
      />
      <p className={styles.usage}>
        使い方：リクエストヘッダー <code>X-MICROCMS-API-KEY</code> にこのキーを入れて{' '}
        <code>/api/v1/&#123;エンドポイント&#125;</code> を呼び出します。
      </p>
    </section>
  );
}
