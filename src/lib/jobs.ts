import { formatNumber, isoDateJa } from './format';

/**
 * The vocabulary of job listings (docs/decisions/010-partners-and-job-listings.md), shared by the
 * content model (src/lib/cms/model.ts), the partner's listing form, the /jobs filters and the
 * JobPosting JSON-LD: one list of each.
 */

/** 雇用形態. */
export const EMPLOYMENT_TYPES = [
  '正社員',
  '契約社員',
  '業務委託',
  'インターン',
  'アルバイト',
] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

/** 職種: the fields a design publisher's readers work in. */
export const OCCUPATIONS = [
  'グラフィックデザイン',
  'ウェブ・UIデザイン',
  'プロダクトデザイン',
  '建築・インテリア',
  '編集・ライティング',
  '写真・映像',
  'アートディレクション',
  'エンジニア',
  '企画・営業',
  'その他',
] as const;
export type Occupation = (typeof OCCUPATIONS)[number];

/** 都道府県, in the JIS X 0401 order. */
export const PREFECTURES = [
  '北海道',
  '青森県',
  '岩手県',
  '宮城県',
  '秋田県',
  '山形県',
  '福島県',
  '茨城県',
  '栃木県',
  '群馬県',
  '埼玉県',
  '千葉県',
  '東京都',
  '神奈川県',
  '新潟県',
  '富山県',
  '石川県',
  '福井県',
  '山梨県',
  '長野県',
  '岐阜県',
  '静岡県',
  '愛知県',
  '三重県',
  '滋賀県',
  '京都府',
  '大阪府',
  '兵庫県',
  '奈良県',
  '和歌山県',
  '鳥取県',
  '島根県',
  '岡山県',
  '広島県',
  '山口県',
  '徳島県',
  '香川県',
  '愛媛県',
  '高知県',
  '福岡県',
  '佐賀県',
  '長崎県',
  '熊本県',
  '大分県',
  '宮崎県',
  '鹿児島県',
  '沖縄県',
] as const;
export type Prefecture = (typeof PREFECTURES)[number];

/**
 * リモート勤務. A フルリモート listing has no place of work: its JSON-LD says TELECOMMUTE with
 * the country applicants must live in, and the /jobs location filter's 「フルリモート」 finds it.
 */
export const REMOTE_OPTIONS = ['出社', '一部リモート', 'フルリモート'] as const;
export type RemoteOption = (typeof REMOTE_OPTIONS)[number];
export const FULL_REMOTE: RemoteOption = 'フルリモート';

/** 給与の単位 and schema.org's unitText for each. */
export const SALARY_UNITS = ['年収', '月給', '時給'] as const;
export type SalaryUnit = (typeof SALARY_UNITS)[number];

/**
 * A listing's choice fields and the values each takes, by the field's id: the content model's
 * select fields, the partner's listing form and the demo data read this one map.
 */
export const JOB_CHOICES = {
  employmentType: EMPLOYMENT_TYPES,
  occupation: OCCUPATIONS,
  prefecture: PREFECTURES,
  remote: REMOTE_OPTIONS,
  salaryUnit: SALARY_UNITS,
} as const;
export type JobChoiceField = keyof typeof JOB_CHOICES;
export const SALARY_UNIT_TEXT: Readonly<Record<SalaryUnit, 'YEAR' | 'MONTH' | 'HOUR'>> = {
  年収: 'YEAR',
  月給: 'MONTH',
  時給: 'HOUR',
};

/** 雇用形態 → schema.org/Google employmentType (契約社員 is a fixed-term employee). */
export const EMPLOYMENT_TYPE_SCHEMA: Readonly<Record<EmploymentType, string>> = {
  正社員: 'FULL_TIME',
  契約社員: 'TEMPORARY',
  業務委託: 'CONTRACTOR',
  インターン: 'INTERN',
  アルバイト: 'PART_TIME',
};

/**
 * 「年収 400万〜600万円」「時給 1,150円〜」: a salary range as Japanese job boards write it.
 * Amounts of 10,000 yen or more in 万 when they divide evenly, else in yen with separators.
 */
export function formatSalaryRange(
  unit: string | null | undefined,
  min: number | null | undefined,
  max: number | null | undefined,
): string | null {
  if (min == null && max == null) return null;
  const yen = (n: number) =>
    n >= 10_000 && n % 10_000 === 0 ? `${formatNumber(n / 10_000)}万` : formatNumber(n);
  const range =
    min != null && max != null && max !== min
      ? `${yen(min)}〜${yen(max)}円`
      : min != null
        ? max === min
          ? `${yen(min)}円`
          : `${yen(min)}円〜`
        : `〜${yen(max!)}円`;
  return unit ? `${unit} ${range}` : range;
}

/**
 * Where a listing stands in its partner's workflow. `published`: its approved version is on
 * /jobs (until its closing date; past it, the listing shows as closed: `isClosed`). A partner
 * editing a published listing makes a new draft while the approved version stays up.
 */
export const LISTING_STATES = ['draft', 'in_review', 'returned', 'published'] as const;
export type ListingState = (typeof LISTING_STATES)[number];
export const LISTING_STATE_LABELS: Readonly<Record<ListingState | 'closed', string>> = {
  draft: '下書き',
  in_review: '審査中',
  returned: '差し戻し',
  published: '公開中',
  closed: '募集終了',
};

/** Today's date in Japan, YYYY-MM-DD (closing dates are Japanese calendar days). */
export function todayInJapan(now: Date = new Date()): string {
  return isoDateJa(now.toISOString());
}

/** A listing is open through its closing day in Japan; none: open until one is set. */
export function isClosed(closingDate: string | null | undefined, now: Date = new Date()): boolean {
  if (!closingDate) return false;
  const day = closingDate.length === 10 ? closingDate : isoDateJa(closingDate);
  return day < todayInJapan(now);
}

/**
 * The content service's filter for listings still open on the Japanese day of `now`: a
 * closing date (stored as an instant) at or after that day's start, or none.
 */
export function openListingsFilter(now: Date = new Date()): string {
  const dayStart = new Date(`${todayInJapan(now)}T00:00:00+09:00`);
  const justBefore = new Date(dayStart.getTime() - 1).toISOString();
  return `(closingDate[greater_than]${justBefore}[or]closingDate[not_exists])`;
}
