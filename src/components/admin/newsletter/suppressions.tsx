import adminStyles from '@/components/admin/admin.module.css';
import { RowError } from '@/components/biz/axis-admin/messages';
import { StaffResultList, StaffSection } from '@/components/admin/staff-list-page';
import staff from '@/components/admin/staff.module.css';
import { InputRow, SelectRow } from '@/components/admin/users/form-fields';
import styles from '@/components/admin/users/users.module.css';
import { Button, SubmitButton } from '@/components/ui/button';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  SUPPRESSION_REASON_LABELS,
  type SuppressionView,
  newsletterPaths,
} from '@/lib/newsletter/console';
import { TableHead } from '@/components/ui/table-head';

const REASONS = Object.keys(
  SUPPRESSION_REASON_LABELS,
) as (keyof typeof SUPPRESSION_REASON_LABELS)[];

type Failed = { fieldErrors: Record<string, string>; typed: Record<string, string | string[]> };

const typedText = (failed: Failed | null, name: string) => {
  const value = failed?.typed[name];
  return typeof value === 'string' ? value : '';
};

/** 配信停止に追加: an address, why, a note. A plain form; a failed post comes back with its fields. */
export function SuppressForm({ failed }: { failed: Failed | null }) {
  const errors = failed?.fieldErrors ?? {};
  return (
    <StaffSection id="suppress" title="配信停止に追加">
      <form method="post" action={newsletterPaths.apiSuppress} className={styles.form} noValidate>
        <InputRow
          id="suppress-email"
          name="email"
          type="email"
          label="メールアドレス"
          hint="このアドレスにはニュースレターを送りません（ログインや手続きのメールは届きます）。"
          required
          maxLength={254}
          autoComplete="off"
          defaultValue={typedText(failed, 'email')}
          error={errors.email}
        />
        <SelectRow
          id="suppress-reason"
          name="reason"
          label="理由"
          defaultValue={typedText(failed, 'reason') || 'manual'}
          options={REASONS.map((value) => ({ value, label: SUPPRESSION_REASON_LABELS[value] }))}
          error={errors.reason}
        />
        <InputRow
          id="suppress-note"
          name="note"
          label="メモ（任意）"
          hint="例：本人から電話で依頼、配送エラー 550。500 文字まで。"
          maxLength={500}
          autoComplete="off"
          defaultValue={typedText(failed, 'note')}
          error={errors.note}
        />
        <div>
          <SubmitButton color="yellow">配信停止に追加</SubmitButton>
        </div>
      </form>
    </StaffSection>
  );
}

/** The suppression list, newest first, each address with the button that takes it off. */
export function SuppressionList({
  result,
  total,
  rowError,
}: {
  result: { items: readonly SuppressionView[]; page: number; pageCount: number };
  total: number;
  /** A failed removal's message, beside its row (the address it was for). */
  rowError: { email: string; message: string } | null;
}) {
  return (
    <StaffSection id="suppressions" title="配信停止リスト">
      <StaffResultList
        path={newsletterPaths.suppressions}
        fragment="suppressions"
        count={`${formatNumber(total)} 件`}
        result={result}
        whenEmpty="配信停止のアドレスはありません。"
        pageParams={{}}
        pageLabel="配信停止リストのページ送り"
      >
        <div className={adminStyles.tableWrap}>
          <table className={adminStyles.table}>
            <caption className="visually-hidden">配信停止のアドレス（新しい順）</caption>
            <TableHead columns={['メールアドレス', '理由', 'メモ', '追加', '操作']} />
            <tbody>
              {result.items.map((row) => (
                <tr key={row.email}>
                  <td>{row.email}</td>
                  <td>{SUPPRESSION_REASON_LABELS[row.reason]}</td>
                  <td>{row.note || '—'}</td>
                  <td>
                    <time dateTime={row.createdAt}>{formatDateTime(row.createdAt)}</time>（{row.by}
                    ）
                  </td>
                  <td>
                    <form method="post" action={newsletterPaths.apiUnsuppress}>
                      <input type="hidden" name="email" value={row.email} />
                      <Button
                        type="submit"
                        color="white"
                        width="auto"
                        height={36}
                        aria-label={`${row.email} を配信停止リストから外す`}
                      >
                        外す
                      </Button>
                    </form>
                    {rowError?.email === row.email ? <RowError message={rowError.message} /> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </StaffResultList>
      <p className={staff.hint}>
        外したアドレスには、本人が配信を希望していれば次の配信から届きます。追加と削除は監査ログに記録されます。
      </p>
    </StaffSection>
  );
}
