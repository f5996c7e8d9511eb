import styles from '@/components/biz/biz-admin.module.css';
import { Field, PostForm, TextArea } from '@/components/forms/form.client';
import type { Flash } from '@/lib/http/flash';
import type { StoredImage } from '@/server/platform/storage/store-image';
import { FORM_KEY, typedIn } from '@/lib/http/form-flash';

export type PartnerFormValues = {
  name: string;
  description: string;
  website: string;
  contractStart: string;
  contractEnd: string;
  listingQuota: string;
};

export const EMPTY_PARTNER_FORM: PartnerFormValues = {
  name: '',
  description: '',
  website: '',
  contractStart: '',
  contractEnd: '',
  listingQuota: '',
};

const MB = 1024 * 1024;

/**
 * A partner's profile and contract, for staff: new (/biz/axis-admin/new) or edited (its page).
 * What was typed comes back after a plain post that failed (`flash`, this form's own only);
 * the logo is left as it is when no file is chosen.
 */
export function PartnerForm({
  action,
  formKey,
  submitLabel,
  values,
  flash,
  logo,
  logoMaxBytes,
}: {
  action: string;
  formKey: string;
  submitLabel: string;
  values: PartnerFormValues;
  flash: Flash | null;
  logo: StoredImage | null;
  logoMaxBytes: number;
}) {
  const value = (name: keyof PartnerFormValues) => typedIn(flash, name) ?? values[name];
  return (
    <PostForm
      action={action}
      submitLabel={submitLabel}
      initialErrors={flash}
      multipart
      fullWidthSubmit={false}
    >
      <input type="hidden" name={FORM_KEY} value={formKey} />
      <Field
        name="name"
        label="企業名"
        required
        maxLength={200}
        autoComplete="organization"
        defaultValue={value('name')}
      />
      <TextArea
        name="description"
        label="紹介文（任意）"
        hint="求人ページの企業欄に表示されます。1,000文字以内"
        maxLength={1000}
        rows={6}
        defaultValue={value('description')}
      />
      <div className={styles.formBlock}>
        {logo ? (
          <figure className={styles.currentLogo}>
            {/* A stored upload of known size: the optimiser adds nothing for a small logo. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img
              src={logo.url}
              alt="現在のロゴ"
              width={logo.width}
              height={logo.height}
              className={styles.logo}
            />
            <figcaption className={styles.muted}>現在のロゴ</figcaption>
          </figure>
        ) : null}
        <Field
          name="logo"
          label={logo ? 'ロゴを差し替える（任意）' : 'ロゴ（任意）'}
          type="file"
          accept="image/*"
          hint={`JPEG・PNG・WebP などの画像、${logoMaxBytes / MB} MB まで。${logo ? '選ばなければ今のロゴのままです。' : ''}`}
        />
      </div>
      <Field
        name="website"
        label="ウェブサイト（任意）"
        type="url"
        inputMode="url"
        autoComplete="url"
        hint="https:// から入力してください"
        maxLength={500}
        defaultValue={value('website')}
      />
      <Field
        name="contractStart"
        label="契約開始日"
        type="date"
        required
        hint="この日から、メンバーが求人を審査に出せるようになります"
        defaultValue={value('contractStart')}
      />
      <Field
        name="contractEnd"
        label="契約終了日（任意）"
        type="date"
        hint="空欄にすると、終了日を決めずに契約が続きます"
        defaultValue={value('contractEnd')}
      />
      <Field
        name="listingQuota"
        label="掲載枠（任意）"
        inputMode="numeric"
        hint="審査中と公開中を合わせて同時に出せる求人の数。空欄は上限なし"
        maxLength={4}
        defaultValue={value('listingQuota')}
      />
    </PostForm>
  );
}
