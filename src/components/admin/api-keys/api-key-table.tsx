import styles from '@/components/biz/biz-admin.module.css';
import { SubmitButton } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { type ApiKeyView, PERMISSION_CHOICES } from '@/lib/cms/api-key-permissions';
import own from './api-keys.module.css';
import { TableHead } from '@/components/ui/table-head';

function When({ at }: { at: Date }) {
  return <time dateTime={at.toISOString()}>{formatDateTime(at)}</time>;
}

/** The key's permissions in the form's order, by their console names. */
function Permissions({ granted }: { granted: readonly string[] }) {
  return (
    <ul className={own.permissions}>
      {PERMISSION_CHOICES.filter((c) => granted.includes(c.permission)).map((c) => (
        <li key={c.permission}>
          {c.label} <span className={own.method}>{c.permission}</span>
        </li>
      ))}
    </ul>
  );
}

/** 無効にする behind a step that says what it does (works without JavaScript). */
function RevokePanel({ item }: { item: ApiKeyView }) {
  return (
    <details className={styles.details}>
      <summary>
        無効にする<span className="visually-hidden">：{item.name}</span>
      </summary>
      <div className={styles.confirm}>
        <p>
          「{item.name}
          」を無効にします。このキーを使うリクエストはすぐに拒否されます（他のサーバーでも数秒以内）。元に戻すことはできません。
        </p>
        <form
          method="post"
          action={`/api/admin/api-keys/${item.id}/revoke`}
          className={styles.inlineForm}
        >
          <SubmitButton>無効にする（確定）</SubmitButton>
        </form>
      </div>
    </details>
  );
}

/** The content API's keys: active ones first, newest first. */
export function ApiKeyTable({ keys }: { keys: readonly ApiKeyView[] }) {
  const active = keys.filter((k) => !k.revokedAt).length;
  return (
    <section className={styles.section} aria-labelledby="keys-title" id="keys">
      <div className={styles.sectionHeader}>
        <h2 id="keys-title" className={styles.sectionTitle}>
          キーの一覧
          <span className={styles.count}>
            有効 {active} 件／全 {keys.length} 件
          </span>
        </h2>
        <a href="#create-key" className={own.jump}>
          新しいキーを作成
        </a>
      </div>
      {keys.length === 0 ? (
        <p className={styles.empty}>APIキーはまだありません。下のフォームから作成できます。</p>
      ) : (
        <table className={styles.table}>
          <caption className="visually-hidden">
            APIキーの一覧（有効なキーが先、新しい順）。最後の使用は 1 分単位で記録されます。
          </caption>
          <TableHead
            columns={[
              '名前',
              'キー',
              '権限',
              '作成',
              '最後の使用',
              '状態',
              { label: '操作', hidden: true },
            ]}
          />
          <tbody>
            {keys.map((item) => (
              <tr key={item.id} id={`key-${item.id}`}>
                <th scope="row" data-label="名前">
                  {item.name}
                </th>
                <td data-label="キー">
                  <code className={own.prefix}>{item.keyPrefix}…</code>
                </td>
                <td data-label="権限">
                  <Permissions granted={item.permissions} />
                </td>
                <td data-label="作成">
                  <When at={item.createdAt} />
                </td>
                <td data-label="最後の使用">
                  {item.lastUsedAt ? <When at={item.lastUsedAt} /> : '未使用'}
                </td>
                <td data-label="状態">
                  {/* One box: in a phone's stacked row the cell is a grid of label and value. */}
                  <div>
                    {item.revokedAt ? (
                      <>
                        <span className={`${styles.badge} ${styles.badgeMuted}`}>無効</span>
                        <span className={own.revokedAt}>
                          <When at={item.revokedAt} />
                        </span>
                      </>
                    ) : (
                      <span className={`${styles.badge} ${styles.badgeStrong}`}>有効</span>
                    )}
                  </div>
                </td>
                <td data-label="操作" className={own.actionCell}>
                  {item.revokedAt ? null : <RevokePanel item={item} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
