import staff from '@/components/admin/staff.module.css';
import { InputRow, SelectRow } from '@/components/admin/users/form-fields';
import styles from '@/components/admin/users/users.module.css';
import {
  SUBJECT_FIELDS,
  SUBJECT_TEST,
  TEST_METRICS,
  TEST_METRIC_LABELS,
} from '@/lib/newsletter/console';

/**
 * The send form's subject line test (docs/decisions/063-newsletter-analytics.md): up to three
 * subjects, the sample's share, the wait and what decides. Two or more subjects make a test;
 * none keeps the post's title as the subject. A plain form: the server checks everything again.
 */
export function SubjectTestFields({ title }: { title: string }) {
  return (
    <fieldset className={styles.field} aria-describedby="subject-test-hint">
      <legend className={styles.label}>件名テスト（任意）</legend>
      <p id="subject-test-hint" className={staff.hint}>
        件名を 2
        つ以上入力すると、読者の一部（サンプル）に件名を均等に分けて送り、待ち時間のあとで結果の良かった件名を残りの読者に送ります。空欄のままなら、件名は記事のタイトル「
        {title || '（無題）'}」です。
      </p>
      {SUBJECT_FIELDS.map((name, i) => (
        <InputRow
          key={name}
          id={`newsletter-${name}`}
          name={name}
          label={`件名 ${'ABC'[i]}`}
          maxLength={SUBJECT_TEST.subjectMaxChars}
          autoComplete="off"
          defaultValue={i === 0 ? title : ''}
        />
      ))}
      <InputRow
        id="newsletter-sample-percent"
        name="samplePercent"
        type="number"
        label="サンプルの割合（%）"
        hint={`${SUBJECT_TEST.minSamplePercent}〜${SUBJECT_TEST.maxSamplePercent}%。件名ごとに均等に分けます。`}
        min={SUBJECT_TEST.minSamplePercent}
        max={SUBJECT_TEST.maxSamplePercent}
        defaultValue={SUBJECT_TEST.defaultSamplePercent}
        inputMode="numeric"
      />
      <SelectRow
        id="newsletter-wait-hours"
        name="waitHours"
        label="結果を待つ時間"
        defaultValue={String(SUBJECT_TEST.defaultWaitHours)}
        options={SUBJECT_TEST.waitHours.map((h) => ({ value: String(h), label: `${h} 時間` }))}
      />
      <SelectRow
        id="newsletter-test-metric"
        name="testMetric"
        label="残りの読者に送る件名"
        hint="Apple のメールなどは受信時に画像を読み込むため開封数は多めに出ます。クリックで決めることをおすすめします。"
        defaultValue="clicks"
        options={TEST_METRICS.map((m) => ({ value: m, label: TEST_METRIC_LABELS[m] }))}
      />
    </fieldset>
  );
}
