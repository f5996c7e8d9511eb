import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { ApiKeyTable } from '@/components/admin/api-keys/api-key-table';
import { CreateApiKeyForm } from '@/components/admin/api-keys/create-api-key-form';
import { NewKeyPanel } from '@/components/admin/api-keys/new-key-panel';
import { NEW_KEY_NAME_VALUE, NEW_KEY_VALUE } from '@/lib/cms/api-key-permissions';
import styles from '@/components/biz/biz-admin.module.css';
import { doneMessage, failure, typedIn } from '@/lib/http/form-flash';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { listKeysForConsole } from '@/server/features/admin/api-keys-http';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('APIキー', '/admin/api-keys'),
);

/**
 * The content API's keys (admins only; everyone else, editors too, sees the 404 page). A new
 * key arrives once, in the one-time message of the create post; the page is rendered per
 * request and answered with no-store, like every page that reads the session.
 */
export default async function ApiKeysPage() {
  await requireAdmin();
  const [keys, received] = await Promise.all([listKeysForConsole(), readFlash()]);

  const notice = doneMessage(received);
  const newKey = notice ? typedIn(received, NEW_KEY_VALUE) : undefined;
  const failed = failure(received);
  const formFailed = !!failed && Object.keys(failed.fieldErrors).length > 0;

  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <p className={styles.breadcrumb}>
          <Link href="/admin">管理画面</Link> / APIキー
        </p>
        <h1 className={styles.title}>APIキー</h1>
        <p className={styles.lead}>
          コンテンツ API（<code>/api/v1/…</code>
          ）を外部のサービスやスクリプトから使うためのキーです。キーそのものは保存されず、一覧には先頭の数文字だけが表示されます。
        </p>
      </header>
      <PageMessages flash={received} errorAt={formFailed ? '#create-key' : null} />
      {newKey ? (
        <NewKeyPanel name={typedIn(received, NEW_KEY_NAME_VALUE) ?? ''} apiKey={newKey} />
      ) : null}
      <ApiKeyTable keys={keys} />
      <CreateApiKeyForm
        fieldErrors={failed?.fieldErrors ?? {}}
        typed={formFailed ? (failed?.values ?? null) : null}
      />
    </div>
  );
}
