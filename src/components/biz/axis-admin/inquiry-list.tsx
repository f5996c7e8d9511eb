import styles from '@/components/biz/biz-admin.module.css';
import { SubmitButton } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import {
  INQUIRY_KIND_LABELS,
  INQUIRY_STATES,
  INQUIRY_STATE_LABELS,
  type InquiryFields,
  type InquiryState,
} from '@/lib/inquiries';
import { FORM_KEY } from '@/lib/http/form-flash';
import { RowError } from './messages';
import { BizListSection } from '@/components/biz/biz-section';
import { Options } from '@/components/forms/options';

export type InquiryView = InquiryFields & {
  id: string;
  state: InquiryState;
  receivedAt: Date;
};

type Props = {
  items: InquiryView[];
  total: number;
  page: number;
  totalPages: number;
  params: Record<string, string | undefined>;
  /** The message of a failed state change, by inquiry id. */
  errorOf: (id: string) => string | null;
};

/** The message's start; the rest opens on demand. */
const CLIP = 140;

export const inquiryFormKey = (id: string) => `inquiry-${id}`;

/** 申し込み・問い合わせ from /biz/request and /jobs/about/contact, newest first, with their state. */
export function InquiryList({ items, total, page, totalPages, params, errorOf }: Props) {
  return (
    <BizListSection
      id="inquiries"
      title="申し込み・問い合わせ"
      items={items}
      total={total}
      unit="件"
      intro={
        <p className={styles.lead}>
          パートナープログラムの申し込みフォームと求人掲載のお問い合わせフォームから届いたものです。返信は各メールアドレス宛てにお送りください。
        </p>
      }
      path="/biz/axis-admin"
      empty="申し込み・問い合わせはまだありません。"
      pagination={{
        label: '申し込み・問い合わせのページ送り',
        params,
        param: 'ipage',
        page,
        totalPages,
      }}
    >
      <ol className={styles.cards} aria-label="申し込み・問い合わせの一覧（新しい順）">
        {items.map((item) => (
          <li key={item.id}>
            <InquiryCard item={item} error={errorOf(item.id)} />
          </li>
        ))}
      </ol>
    </BizListSection>
  );
}

function InquiryCard({ item, error }: { item: InquiryView; error: string | null }) {
  const titleId = `inquiry-${item.id}-title`;
  const stateId = `inquiry-${item.id}-state`;
  const message = item.message ?? '';
  const clipped = [...message].length > CLIP;
  return (
    <article id={`inquiry-${item.id}`} className={styles.card} aria-labelledby={titleId}>
      <div className={styles.cardHeader}>
        <h3 id={titleId} className={styles.cardTitle}>
          {item.company}
        </h3>
        <span className={styles.badge}>{INQUIRY_KIND_LABELS[item.kind]}</span>
        <span
          className={`${styles.badge} ${item.state === 'new' ? styles.badgeStrong : item.state === 'done' ? styles.badgeMuted : ''}`}
        >
          {INQUIRY_STATE_LABELS[item.state]}
        </span>
      </div>
      <dl className={styles.meta}>
        <dt>受付日時</dt>
        <dd>
          <time dateTime={item.receivedAt.toISOString()}>{formatDateTime(item.receivedAt)}</time>
        </dd>
        <dt>ご担当者</dt>
        <dd>{item.name}</dd>
        <dt>メール</dt>
        <dd>
          <a href={`mailto:${item.email}`}>{item.email}</a>
        </dd>
        <dt>電話番号</dt>
        <dd>
          {item.phone ? <a href={`tel:${item.phone.replace(/[^\d+]/g, '')}`}>{item.phone}</a> : '—'}
        </dd>
        {item.kind === 'partner-application' ? (
          <>
            <dt>ウェブサイト</dt>
            <dd>
              {item.website && /^https?:\/\//i.test(item.website) ? (
                <a href={item.website} rel="noopener noreferrer nofollow">
                  {item.website}
                </a>
              ) : (
                '—'
              )}
            </dd>
            <dt>従業員数</dt>
            <dd>{item.companySize ?? '—'}</dd>
            <dt>関心のあるプラン</dt>
            <dd>{item.plan ?? '—'}</dd>
          </>
        ) : null}
      </dl>
      {message ? (
        <div className={styles.message}>
          <p className={`${styles.text} ${clipped ? styles.clip : ''}`}>
            {clipped ? `${[...message].slice(0, CLIP).join('')}…` : message}
          </p>
          {clipped ? (
            <details className={styles.details}>
              <summary>全文を読む</summary>
              <p className={styles.text}>{message}</p>
            </details>
          ) : null}
        </div>
      ) : null}
      <form
        method="post"
        action={`/api/biz/axis-admin/inquiries/${item.id}`}
        className={styles.inlineForm}
      >
        <input type="hidden" name={FORM_KEY} value={inquiryFormKey(item.id)} />
        <label htmlFor={stateId} className={styles.label}>
          対応状況
        </label>
        <select id={stateId} name="state" defaultValue={item.state}>
          <Options items={INQUIRY_STATES} label={(state) => INQUIRY_STATE_LABELS[state]} />
        </select>
        <SubmitButton color="white">
          更新<span className="visually-hidden">：{item.company}</span>
        </SubmitButton>
      </form>
      <RowError message={error} />
    </article>
  );
}
