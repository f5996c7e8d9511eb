import { JOB_CHOICES, type JobChoiceField } from '@/lib/jobs';
import { Button } from '@/components/ui/button';
import {
  LISTING_FIELD_LABELS,
  LISTING_FIELD_NAMES,
  LISTING_LIMITS,
  type ListingFields,
} from '@/server/features/partners/jobs/listing-input';
import { FieldGroup, SelectInput, TextAreaInput, TextInput, fieldId } from './form-fields';
import styles from './jobs-post.module.css';
import { formatNumber } from '@/lib/format';

/**
 * The partner's listing form (/jobs/post): a plain HTML form posting to
 * /api/jobs/listings[/{id}], which answers 303 (src/server/features/partners/jobs/listings-http.ts). Three
 * submit buttons name the intent; Enter in a field saves the draft (the first button), the
 * safe choice. Field messages come back from the server beside each field and, linked, in a
 * summary at the top.
 */

export type ListingFormValues = Record<keyof ListingFields, string>;

export type ListingFormProps = {
  action: string;
  values: ListingFormValues;
  /** The stored revision of an existing listing (a stale form is refused, not merged). */
  revision: number | null;
  message: string | null;
  errors: Readonly<Record<string, string>>;
  /** Notes beside fields whose typed text could not all come back (a long text and an error). */
  warnings: Readonly<Record<string, string>>;
  /** The closing date's bounds (today and a year ahead, in Japan). */
  closingDateRange: { min: string; max: string };
};

export function ListingForm(props: ListingFormProps) {
  const { values, errors, warnings } = props;
  const common = (name: keyof ListingFields) => ({
    name,
    label: LISTING_FIELD_LABELS[name],
    error: errors[name],
    warning: warnings[name],
  });
  const text = (name: keyof ListingFields) => ({
    ...common(name),
    defaultValue: values[name],
  });
  const choice = (name: JobChoiceField) => ({
    ...common(name),
    options: JOB_CHOICES[name],
    placeholder: '選択してください',
    defaultValue: values[name],
  });

  return (
    <form method="post" action={props.action} noValidate className={styles.form}>
      <ErrorSummary message={props.message} errors={errors} />
      {props.revision !== null ? (
        <input type="hidden" name="revision" value={props.revision} />
      ) : null}

      <FieldGroup legend="基本情報">
        <TextInput
          {...text('title')}
          neededForReview
          maxLength={LISTING_LIMITS.title}
          hint="例：グラフィックデザイナー（ブランディング）。下書きの保存にも必要です。"
        />
        <TextAreaInput
          {...text('description')}
          neededForReview
          rows={3}
          maxLength={LISTING_LIMITS.description}
          hint={`求人一覧と検索結果に表示する紹介文です。${LISTING_LIMITS.description}文字以内。`}
        />
        <div className={styles.pair}>
          <SelectInput {...choice('occupation')} neededForReview />
          <SelectInput {...choice('employmentType')} neededForReview />
        </div>
      </FieldGroup>

      <FieldGroup legend="勤務地">
        <div className={styles.pair}>
          <SelectInput {...choice('remote')} neededForReview />
          <SelectInput
            {...choice('prefecture')}
            neededForReview
            hint="フルリモートの場合は選ばなくてもかまいません。"
          />
        </div>
        <TextInput
          {...text('location')}
          maxLength={LISTING_LIMITS.location}
          autoComplete="off"
          hint="例：渋谷区神宮前 3-1-1（表参道駅から徒歩5分）"
        />
      </FieldGroup>

      <FieldGroup legend="給与・勤務時間">
        <SelectInput {...choice('salaryUnit')} neededForReview />
        <div className={styles.pair}>
          <TextInput
            {...text('salaryMin')}
            neededForReview
            inputMode="numeric"
            autoComplete="off"
            maxLength={16}
            hint="円単位の数字（例：4000000）"
          />
          <TextInput
            {...text('salaryMax')}
            inputMode="numeric"
            autoComplete="off"
            maxLength={16}
            hint="任意。円単位の数字（例：6000000）"
          />
        </div>
        <TextInput
          {...text('hours')}
          neededForReview
          maxLength={LISTING_LIMITS.hours}
          hint="例：10:00〜19:00（フレックスタイム制、コアタイム 11:00〜16:00）"
        />
      </FieldGroup>

      <FieldGroup legend="仕事内容">
        <TextAreaInput
          {...text('details')}
          neededForReview
          rows={14}
          maxLength={LISTING_LIMITS.details}
          hint={`仕事内容、応募資格、歓迎するスキル、待遇・福利厚生など。空行をはさむと段落が分かれます。${formatNumber(LISTING_LIMITS.details)}文字以内。`}
        />
      </FieldGroup>

      <FieldGroup
        legend="応募方法"
        hint="審査に出すには、応募先 URL とメールアドレスのどちらかが必要です。"
      >
        <TextInput
          {...text('applyUrl')}
          type="url"
          inputMode="url"
          autoComplete="url"
          maxLength={LISTING_LIMITS.applyUrl}
          hint="採用ページのアドレス（https:// から）"
        />
        <TextInput
          {...text('applyEmail')}
          type="email"
          inputMode="email"
          autoComplete="email"
          maxLength={LISTING_LIMITS.applyEmail}
          hint="メールで応募を受け付ける場合のアドレス"
        />
      </FieldGroup>

      <FieldGroup legend="募集期間">
        <TextInput
          {...text('closingDate')}
          type="date"
          neededForReview
          min={props.closingDateRange.min}
          max={props.closingDateRange.max}
          hint="この日の終わりまで応募を受け付け、翌日に求人一覧から外れます（1年以内）。"
        />
      </FieldGroup>

      <div className={styles.actions}>
        <Button type="submit" name="intent" value="save" color="white" width="auto" height={48}>
          下書きを保存
        </Button>
        <Button type="submit" name="intent" value="preview" color="white" width="auto" height={48}>
          プレビュー
        </Button>
        <Button type="submit" name="intent" value="submit" color="yellow" width="auto" height={48}>
          審査に提出
        </Button>
      </div>
      <p className={styles.actionsNote}>
        「プレビュー」は下書きを保存してから、公開時の見え方を表示します。「審査に提出」すると編集部が内容を確認し、承認されると求人一覧に掲載されます。
      </p>
    </form>
  );
}

/** The message of the last post and its field errors, each linked to its field. */
function ErrorSummary({
  message,
  errors,
}: {
  message: string | null;
  errors: Readonly<Record<string, string>>;
}) {
  const fields = LISTING_FIELD_NAMES.filter((name) => errors[name]);
  if (!message && fields.length === 0) return null;
  return (
    <div className={styles.errorSummary} role="alert" aria-labelledby="listing-error-title">
      <p id="listing-error-title" className={styles.errorTitle}>
        {message ?? '入力内容を確認してください。'}
      </p>
      {fields.length > 0 ? (
        <ul className={styles.errorList}>
          {fields.map((name) => (
            <li key={name}>
              <a href={`#${fieldId(name)}`}>{errors[name]}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
