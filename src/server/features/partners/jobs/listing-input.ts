import 'server-only';
import {
  EMPLOYMENT_TYPES,
  FULL_REMOTE,
  OCCUPATIONS,
  PREFECTURES,
  REMOTE_OPTIONS,
  SALARY_UNITS,
  todayInJapan,
} from '@/lib/jobs';
import type { EndpointDef } from '@/lib/cms/model';
import { type FieldDiff, diffFields } from '@/lib/content-diff';
import { formatDateJa, formatNumber } from '@/lib/format';
import { optionalDay, z } from '@/lib/zod';
import { escapeHtml } from '@/lib/text/escape-html';

/**
 * A partner's job listing as its form sends it (/jobs/post, /biz/partner-admin): the one
 * place its fields and their rules live. A draft may be incomplete (a title is enough, and
 * what is filled in must be well-formed); submitting for review needs every required field
 * (`missingForReview`). `toJobContent` turns it into the `jobs` item of the content service.
 */

export const LISTING_LIMITS = {
  title: 100,
  description: 300,
  details: 10_000,
  location: 200,
  hours: 200,
  applyUrl: 500,
  applyEmail: 254,
  /** 10億円: a bound, not a policy. */
  salary: 1_000_000_000,
  /** A closing date at most this many days ahead: listings are not forever. */
  closingDays: 366,
} as const;

export type ListingFields = {
  title: string;
  /** 概要: the one paragraph shown in lists and search. */
  description: string;
  /** 仕事内容・応募資格など: plain text, blank lines between paragraphs. */
  details: string;
  employmentType: string;
  occupation: string;
  prefecture: string;
  remote: string;
  location: string;
  salaryUnit: string;
  salaryMin: number | null;
  salaryMax: number | null;
  hours: string;
  applyUrl: string;
  applyEmail: string;
  /** YYYY-MM-DD, a day in Japan, the last day applications are taken; '' none yet. */
  closingDate: string;
};

export const LISTING_FIELD_NAMES = [
  'title',
  'description',
  'details',
  'employmentType',
  'occupation',
  'prefecture',
  'remote',
  'location',
  'salaryUnit',
  'salaryMin',
  'salaryMax',
  'hours',
  'applyUrl',
  'applyEmail',
  'closingDate',
] as const satisfies readonly (keyof ListingFields)[];

/** Labels for messages and forms. */
export const LISTING_FIELD_LABELS: Readonly<Record<keyof ListingFields, string>> = {
  title: '職種名 (求人タイトル)',
  description: '概要',
  details: '仕事内容・応募資格',
  employmentType: '雇用形態',
  occupation: '職種',
  prefecture: '勤務地 (都道府県)',
  remote: 'リモート勤務',
  location: '勤務地 (詳細)',
  salaryUnit: '給与の単位',
  salaryMin: '給与 (下限)',
  salaryMax: '給与 (上限)',
  hours: '勤務時間',
  applyUrl: '応募先 URL',
  applyEmail: '応募先メールアドレス',
  closingDate: '募集締切',
};

// Form values arrive as strings; a text field is trimmed, NFKC-folded where it is a code
// (numbers, dates), and limited in length.
const text = (label: string, max: number) =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    // Browsers send a textarea's line breaks as CRLF: counted and kept as LF.
    .transform((v) => v.replace(/\r\n?/g, '\n'))
    .pipe(
      z.string().max(max, {
        error: `${label}は${formatNumber(max)}文字以内で入力してください。`,
      }),
    )
    .default('');

const choice = (label: string, options: readonly string[]) =>
  z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || options.includes(v), {
      error: `${label}を一覧から選んでください。`,
    });

const amount = (label: string) =>
  z
    .union([z.string(), z.number()])
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return null;
      const s = String(v)
        .normalize('NFKC')
        .replace(/[,\s円]/g, '');
      if (s === '') return null;
      if (!/^\d{1,10}$/.test(s) || Number(s) > LISTING_LIMITS.salary) {
        ctx.addIssue({
          code: 'custom',
          message: `${label}は円単位の半角数字で入力してください (例: 4000000)。`,
        });
        return z.NEVER;
      }
      return Number(s);
    });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const listingFieldsSchema = z
  .object({
    title: text('職種名', LISTING_LIMITS.title),
    description: text('概要', LISTING_LIMITS.description),
    details: text('仕事内容・応募資格', LISTING_LIMITS.details),
    employmentType: choice('雇用形態', EMPLOYMENT_TYPES),
    occupation: choice('職種', OCCUPATIONS),
    prefecture: choice('都道府県', PREFECTURES),
    remote: choice('リモート勤務', REMOTE_OPTIONS),
    location: text('勤務地 (詳細)', LISTING_LIMITS.location),
    salaryUnit: choice('給与の単位', SALARY_UNITS),
    salaryMin: amount('給与 (下限)'),
    salaryMax: amount('給与 (上限)'),
    hours: text('勤務時間', LISTING_LIMITS.hours),
    applyUrl: text('応募先 URL', LISTING_LIMITS.applyUrl).refine(
      (v) => v === '' || (/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v) && URL.canParse(v)),
      { error: '応募先 URL は https:// から始まるアドレスを入力してください。' },
    ),
    applyEmail: text('応募先メールアドレス', LISTING_LIMITS.applyEmail).refine(
      (v) => v === '' || EMAIL.test(v),
      { error: 'メールアドレスの形式が正しくありません。' },
    ),
    closingDate: optionalDay('募集締切').default(''),
  })
  .superRefine((f, ctx) => {
    if (f.title === '')
      ctx.addIssue({ code: 'custom', path: ['title'], message: '職種名を入力してください。' });
    if (f.salaryMin !== null && f.salaryMax !== null && f.salaryMax < f.salaryMin)
      ctx.addIssue({
        code: 'custom',
        path: ['salaryMax'],
        message: '給与の上限は下限以上の金額を入力してください。',
      });
  });

/** Form or JSON input → the fields, or zod's error (messages in Japanese, per field). */
export function parseListingFields(
  input: unknown,
): { ok: true; fields: ListingFields } | { ok: false; error: z.ZodError } {
  const result = listingFieldsSchema.safeParse(input);
  return result.success ? { ok: true, fields: result.data } : { ok: false, error: result.error };
}

/** Field → message for what a listing still lacks before it can go to review; {} when ready. */
export function missingForReview(f: ListingFields, now: Date = new Date()): Record<string, string> {
  const errors: Record<string, string> = {};
  const need = (key: keyof ListingFields, message: string) => {
    const value = f[key];
    if (value === '' || value === null) errors[key] = message;
  };
  need('description', '概要を入力してください。');
  need('details', '仕事内容・応募資格を入力してください。');
  need('employmentType', '雇用形態を選んでください。');
  need('occupation', '職種を選んでください。');
  need('remote', 'リモート勤務の可否を選んでください。');
  if (f.remote !== FULL_REMOTE) need('prefecture', '勤務地の都道府県を選んでください。');
  need('salaryUnit', '給与の単位を選んでください。');
  need('salaryMin', '給与の下限を入力してください。');
  need('hours', '勤務時間を入力してください。');
  need('closingDate', '募集締切を入力してください。');
  if (f.applyUrl === '' && f.applyEmail === '')
    errors.applyUrl = '応募先 URL かメールアドレスのどちらかを入力してください。';
  if (f.closingDate !== '') {
    const today = todayInJapan(now);
    const last = todayInJapan(new Date(now.getTime() + LISTING_LIMITS.closingDays * 86_400_000));
    if (f.closingDate < today) errors.closingDate = '募集締切は今日以降の日付を指定してください。';
    else if (f.closingDate > last)
      errors.closingDate = `募集締切は${LISTING_LIMITS.closingDays}日以内の日付を指定してください。`;
  }
  return errors;
}

/** Plain text → paragraphs: blank lines split them, single line breaks stay as <br>. */
export function paragraphsHtml(plain: string): string {
  return plain
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const one = (v: string) => (v === '' ? [] : [v]);

/**
 * The `jobs` item the content service keeps for an approved listing of `partnerId`. Every
 * field is named, empty ones as '' / [] / null, so the same body creates the item or, as a
 * PATCH, replaces all of it (microCMS clears a field with those values).
 */
export function toJobContent(f: ListingFields, partnerId: string): Record<string, unknown> {
  return {
    title: f.title,
    partner: partnerId,
    description: f.description,
    body: paragraphsHtml(f.details),
    ...jobTermsOf(f),
  };
}

/**
 * The `jobs` item's terms of work and ways to apply, as a listing's fields give them: what
 * toJobContent writes and the partner's preview (src/components/jobs-post) shows.
 */
export function jobTermsOf(f: ListingFields) {
  return {
    employmentType: one(f.employmentType),
    occupation: one(f.occupation),
    prefecture: one(f.prefecture),
    remote: one(f.remote),
    location: f.location,
    salaryUnit: one(f.salaryUnit),
    salaryMin: f.salaryMin,
    salaryMax: f.salaryMax,
    hours: f.hours,
    applyUrl: f.applyUrl,
    applyEmail: f.applyEmail,
    // The end of the day in Japan: the listing is open through it.
    closingDate: f.closingDate ? `${f.closingDate}T23:59:59+09:00` : null,
  };
}

/** An empty listing, for a new form. */
export const EMPTY_LISTING: ListingFields = {
  title: '',
  description: '',
  details: '',
  employmentType: '',
  occupation: '',
  prefecture: '',
  remote: '',
  location: '',
  salaryUnit: '',
  salaryMin: null,
  salaryMax: null,
  hours: '',
  applyUrl: '',
  applyEmail: '',
  closingDate: '',
};

/** A field's value as the listing shows it: amounts in yen, the closing day as a date. */
function shownValue(name: keyof ListingFields, value: ListingFields[keyof ListingFields]): string {
  if (value === null || value === '') return '';
  if (typeof value === 'number') return `${formatNumber(value)}円`;
  return name === 'closingDate' ? formatDateJa(`${value}T00:00:00+09:00`) : value;
}

const LISTING_DIFF_DEF: EndpointDef = {
  endpoint: 'job-listings',
  label: '求人',
  kind: 'list',
  fields: LISTING_FIELD_NAMES.map((id) => ({
    id,
    label: LISTING_FIELD_LABELS[id],
    kind: id === 'details' || id === 'description' ? 'textArea' : 'text',
  })),
};

/**
 * What a resubmitted listing changes against the version staff last approved or returned,
 * field by field and character by character (the version history's comparison), values as
 * the listing shows them.
 */
export function listingChanges(before: ListingFields, after: ListingFields): FieldDiff[] {
  const shown = (fields: ListingFields) =>
    Object.fromEntries(LISTING_FIELD_NAMES.map((name) => [name, shownValue(name, fields[name])]));
  return diffFields(LISTING_DIFF_DEF, shown(before), shown(after));
}
