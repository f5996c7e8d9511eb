import { Link } from '@/components/layout/site-link';
import { formatDateTime } from '@/lib/format';
import type { AuditRecord } from '@/server/platform/audit/audit-log';
import { auditActionLabel } from './audit-labels';
import styles from './users.module.css';

const USER_REF = /^user:(.+)$/;

/** `user:{id}` as the user's address linking to their page while they exist; anything else raw. */
function Party({ value, emails }: { value: string | null; emails: Map<string, string> }) {
  if (!value) return <span className={styles.muted}>なし</span>;
  const email = emails.get(value);
  const id = USER_REF.exec(value)?.[1];
  if (email && id) return <Link href={`/admin/users/${encodeURIComponent(id)}`}>{email}</Link>;
  return <span className={styles.code}>{value}</span>;
}

/** Details as compact JSON, or nothing when the event has none. */
function detailText(detail: Record<string, unknown>): string | null {
  return Object.keys(detail).length === 0 ? null : JSON.stringify(detail);
}

/** Audit events, newest first, each a card: when, what, who, to what, from where. */
export function AuditEntries({
  items,
  emails,
  headingLevel = 2,
}: {
  items: AuditRecord[];
  emails: Map<string, string>;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ol className={styles.list}>
      {items.map((item) => {
        const detail = detailText(item.detail);
        return (
          <li key={item.id} className={styles.item}>
            <Heading className={styles.itemTitle}>
              {auditActionLabel(item.action)}
              {auditActionLabel(item.action) !== item.action ? (
                <span className={styles.muted}>
                  {' '}
                  <span className={styles.code}>({item.action})</span>
                </span>
              ) : null}
            </Heading>
            <dl className={`${styles.facts} ${styles.inline}`}>
              <dt>日時</dt>
              <dd>
                <time dateTime={item.occurredAt.toISOString()}>
                  {formatDateTime(item.occurredAt)}
                </time>
              </dd>
              <dt>実行者</dt>
              <dd>
                <Party value={item.actor} emails={emails} />
              </dd>
              <dt>対象</dt>
              <dd>
                <Party value={item.target} emails={emails} />
              </dd>
              <dt>IP</dt>
              <dd>{item.ip ?? <span className={styles.muted}>記録なし</span>}</dd>
              {detail ? (
                <>
                  <dt>詳細</dt>
                  <dd>
                    <code className={styles.code}>{detail}</code>
                  </dd>
                </>
              ) : null}
            </dl>
          </li>
        );
      })}
    </ol>
  );
}
