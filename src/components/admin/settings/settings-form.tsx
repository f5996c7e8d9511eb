import { SubmitButton } from '@/components/ui/button';
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
