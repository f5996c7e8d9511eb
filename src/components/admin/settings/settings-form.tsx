import { Link } from '@/components/layout/site-link';
import { SubmitButton } from '@/components/ui/button';
import adminStyles from '@/components/admin/admin.module.css';
import { InputRow } from '@/components/admin/users/form-fields';
import styles from '@/components/admin/users/users.module.css';
import { StaffSection } from '@/components/admin/staff-list-page';
import type { Flash } from '@/lib/http/flash';
import { FORM_KEY, flashFor, typedIn } from '@/lib/http/form-flash';

/**
 * /admin/settings: the metered wall's monthly allowance (docs/decisions/055-metered-wall.md), a
 * plain form that works without JavaScript; a refused value comes back beside its field.
 */
export function MeteredSettingForm({
  formKey,
  value,
  flash,
}: {
  formKey: string;
  value: number;
  flash: Flash | null;
}) {
  const failed = flashFor(flash, formKey);
  return (
    <StaffSection id="metered" title="メーター制（無料会員が読める会員限定記事）">
      <form method="post" action="/api/admin/settings" className={styles.form} noValidate>
        <input type="hidden" name={FORM_KEY} value={formKey} />
        <InputRow
          id="metered-reads"
          name="meteredReadsPerMonth"
          label="無料会員が毎月全文を読める会員限定記事の本数"
          inputMode="numeric"
          required
          defaultValue={typedIn(failed, 'meteredReadsPerMonth') ?? String(value)}
          error={failed?.fieldErrors.meteredReadsPerMonth ?? null}
          hint="日本時間の毎月1日に読める本数が戻ります。同じ記事を同じ月に読み直しても数えません。0 でメーター制はオフ（今までどおりのペイウォール）です。"
        />
        <div className={styles.actions}>
          <SubmitButton>保存する</SubmitButton>
        </div>
      </form>
    </StaffSection>
  );
}

/** One post's metered reads and the plans taken after them (meteredConversions). */
export type MeteredRow = {
  contentId: string;
  reads: number;
  readers: number;
  subscriptions: number;
};

/**
 * What metered reads led to in the last 30 days, per post: reads, readers and the plans taken
 * after one (each plan counted once, for its reader's last metered read before it).
 */
export function MeteredConversions({ rows }: { rows: readonly MeteredRow[] }) {
  return (
    <StaffSection id="metered-conversions" title="メーター制で読まれた記事（直近30日）">
      {rows.length === 0 ? (
        <p className={adminStyles.empty}>メーター制で読まれた記事はまだありません。</p>
      ) : (
        <div className={adminStyles.tableWrap}>
          <table className={adminStyles.table}>
            <thead>
              <tr>
                <th scope="col">記事</th>
                <th scope="col">読まれた回数</th>
                <th scope="col">読んだ無料会員</th>
                <th scope="col">その後の有料申し込み</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.contentId}>
                  <th scope="row">
                    <Link href={`/posts/${encodeURIComponent(row.contentId)}`} prefetch={false}>
                      {row.contentId}
                    </Link>
                  </th>
                  <td>{row.reads}</td>
                  <td>{row.readers}</td>
                  <td>{row.subscriptions}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className={styles.hint}>
        有料申し込みは、その読者が申し込む前の30日以内に最後にメーター制で読んだ記事に1件として数えます。
      </p>
    </StaffSection>
  );
}
