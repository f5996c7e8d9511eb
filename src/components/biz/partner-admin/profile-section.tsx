import biz from '@/components/biz/biz-admin.module.css';
import { PartnerLogo } from './partner-logo';
import { Field, PostForm, TextArea } from '@/components/forms/form.client';
import type { Flash } from '@/lib/http/flash';
import { typedText } from '@/server/platform/http/read-flash';
import { LOGO_MAX_BYTES, type PartnerDetail } from '@/server/features/partners/partners';
import { BizSection } from '@/components/biz/biz-section';
import styles from './partner-admin.module.css';
import { formatNumber } from '@/lib/format';

/**
 * 企業情報: what the partner's members may change of its public profile (shown with every job
 * of the partner): the description, the website and the logo. The name and the contract are
 * staff's. A plain post comes back with its messages and what was typed (the flash).
 */

/** What the server keeps as a logo (it reads the file's bytes; GIF and AVIF pass too). */
const LOGO_TYPES = 'image/jpeg,image/png,image/webp';
const DESCRIPTION_MAX = 1000;
const WEBSITE_MAX = 500;
const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

export function ProfileSection({
  partner,
  flash,
}: {
  partner: PartnerDetail;
  flash: Flash | null;
}) {
  const typed = (name: string) => typedText(flash, name);
  return (
    <BizSection id="profile" title="企業情報">
      <div className={styles.formColumn}>
        <p className={styles.hint}>
          紹介文・ウェブサイト・ロゴは、求人ページの「企業情報」に表示されます。企業名と契約内容の変更は担当者にご連絡ください。
        </p>
        <dl className={biz.meta}>
          <dt>企業名</dt>
          <dd>{partner.name}</dd>
        </dl>
        <PostForm
          action={`/api/biz/partner-admin/${partner.id}/profile`}
          submitLabel="企業情報を保存する"
          initialErrors={flash}
          multipart
        >
          <TextArea
            name="description"
            label="紹介文"
            hint={`事業の内容や働く環境など。${formatNumber(DESCRIPTION_MAX)}文字以内`}
            maxLength={DESCRIPTION_MAX}
            rows={6}
            defaultValue={typed('description') ?? partner.description}
          />
          <Field
            name="website"
            label="ウェブサイト"
            type="url"
            inputMode="url"
            autoComplete="url"
            hint="https:// から入力してください"
            maxLength={WEBSITE_MAX}
            defaultValue={typed('website') ?? partner.website}
          />
          <div className={styles.logoField}>
            <figure className={styles.currentLogo}>
              {partner.logo ? (
                <PartnerLogo
                  logo={partner.logo}
                  alt={`${partner.name}のロゴ`}
                  sizes="8rem"
                  className={styles.logoBox}
                />
              ) : (
                <span className={styles.noLogo}>なし</span>
              )}
              <figcaption className={styles.hint}>現在のロゴ</figcaption>
            </figure>
            <Field
              name="logo"
              label="ロゴ画像"
              type="file"
              accept={LOGO_TYPES}
              hint={`JPEG・PNG・WebP、${megabytes(LOGO_MAX_BYTES)} まで。画像を選んで保存したときだけ、現在のロゴと差し替わります。`}
              className={styles.fileField}
            />
          </div>
        </PostForm>
      </div>
    </BizSection>
  );
}
