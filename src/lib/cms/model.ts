/**
 * The content model: every endpoint of the built-in content service and its fields, as a
 * design publisher needs them. One definition drives write validation, filtering, sorting,
 * reference expansion, search indexing and docs/content-model.md.
 * Field kinds follow microCMS (text, textArea, richEditor, number, boolean, date, select,
 * media, file, relation, relationList) and their API shapes.
 */

import { JOB_CHOICES, type JobChoiceField } from '@/lib/jobs';

export type FieldKind =
  | 'text'
  | 'textArea'
  | 'richEditor'
  | 'number'
  | 'boolean'
  | 'date'
  | 'select'
  | 'media'
  | 'file'
  | 'relation'
  | 'relationList'
  | 'custom';

export type FieldDef = {
  id: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  /** text, textArea, richEditor: maximum characters. */
  maxLength?: number;
  /** select: the allowed options; `multiple` allows more than one. */
  options?: readonly string[];
  multiple?: boolean;
  /** relation, relationList: the endpoint referred to. */
  endpoint?: string;
  /** text: only URLs of these origins (prefixes) are accepted. */
  urlPrefixes?: readonly string[];
  /** text: an address (e-mail), not prose: left out of the search text. */
  address?: boolean;
  /** number: inclusive range. */
  min?: number;
  max?: number;
  /** number: whole numbers only (a price in yen). */
  integer?: boolean;
  /** A boolean field of the same item that, when true, leaves no room for this one's value. */
  forbiddenBy?: string;
  /**
   * custom: its inner fields (text, textArea, boolean or media). The API gives them as one
   * object with `fieldId` naming the custom field, as a microCMS カスタムフィールド.
   */
  fields?: readonly FieldDef[];
  /** custom: the `fieldId` the API names its value with. */
  customFieldId?: string;
};

export type EndpointDef = {
  endpoint: string;
  label: string;
  kind: 'list' | 'object';
  fields: readonly FieldDef[];
};

const title = (max = 200): FieldDef => ({
  id: 'title',
  label: 'タイトル',
  kind: 'text',
  required: true,
  maxLength: max,
});
const description: FieldDef = {
  id: 'description',
  label: '概要',
  kind: 'textArea',
  maxLength: 1000,
};
const coverImage: FieldDef = { id: 'coverImage', label: 'カバー画像', kind: 'media' };
const body: FieldDef = { id: 'body', label: '本文', kind: 'richEditor', maxLength: 200_000 };
const isPublicPreview: FieldDef = {
  id: 'isPublicPreview',
  label: '無料公開 (全員が全文を読める)',
  kind: 'boolean',
};
const writers: FieldDef = {
  id: 'writers',
  label: '執筆者',
  kind: 'relationList',
  endpoint: 'writers',
};
/** A job listing's choice field, with the values of src/lib/jobs.ts. */
const jobChoice = (id: JobChoiceField, label: string): FieldDef => ({
  id,
  label,
  kind: 'select',
  options: JOB_CHOICES[id],
});
const website: FieldDef = {
  id: 'website',
  label: 'ウェブサイト',
  kind: 'text',
  maxLength: 500,
  urlPrefixes: ['https://', 'http://'],
};
/** The required name of a writer, a tag or a partner. */
const name = (label: string, maxLength: number): FieldDef => ({
  id: 'name',
  label,
  kind: 'text',
  required: true,
  maxLength,
});
/**
 * How an item's page looks in search results and when shared (docs/decisions/030-share-and-search.md):
 * each inner field falls back to the item's own (title, description, cover image) when empty.
 */
export const SEO_FIELD: FieldDef = {
  id: 'seo',
  label: '検索と共有',
  kind: 'custom',
  customFieldId: 'seo',
  fields: [
    { id: 'metaTitle', label: 'メタタイトル', kind: 'text', maxLength: 70 },
    { id: 'metaDescription', label: 'メタディスクリプション', kind: 'textArea', maxLength: 200 },
    { id: 'shareImage', label: '共有画像 (OGP)', kind: 'media' },
    { id: 'noIndex', label: '検索エンジンに表示しない (noindex)', kind: 'boolean' },
  ],
};
const seo = SEO_FIELD;

const objectPage = (endpoint: string, label: string): EndpointDef => ({
  endpoint,
  label,
  kind: 'object',
  fields: [title(100), description, body, seo],
});

export const POST_FORMATS = ['article', 'interview', 'report', 'insight'] as const;

export const CONTENT_MODEL: readonly EndpointDef[] = [
  {
    endpoint: 'posts',
    label: '記事',
    kind: 'list',
    fields: [
      title(),
      description,
      coverImage,
      body,
      isPublicPreview,
      // A single article's price (docs/decisions/053-one-time-payments.md): members' posts only.
      {
        id: 'price',
        label: '単体価格 (円・税込。空欄: 単体では販売しない)',
        kind: 'number',
        min: 100,
        max: 50_000,
        integer: true,
        forbiddenBy: 'isPublicPreview',
      },
      { id: 'format', label: '形式', kind: 'select', options: POST_FORMATS },
      { id: 'category', label: '特集', kind: 'relation', endpoint: 'categories' },
      { id: 'series', label: '連載', kind: 'relation', endpoint: 'series' },
      { id: 'seriesOrder', label: '連載内の順番', kind: 'number', min: 0, max: 10_000 },
      { id: 'tags', label: 'タグ', kind: 'relationList', endpoint: 'tags' },
      writers,
      { id: 'relatedPosts', label: '関連記事', kind: 'relationList', endpoint: 'posts' },
      seo,
    ],
  },
  {
    endpoint: 'categories',
    label: '特集',
    kind: 'list',
    fields: [
      name('特集名', 100),
      description,
      coverImage,
      { id: 'issueNumber', label: '号数', kind: 'number', min: 0, max: 100_000 },
      { id: 'isFeatured', label: '現在の特集', kind: 'boolean' },
      seo,
    ],
  },
  {
    endpoint: 'series',
    label: '連載',
    kind: 'list',
    fields: [title(), description, coverImage, writers],
  },
  {
    endpoint: 'writers',
    label: '執筆者',
    kind: 'list',
    fields: [
      name('名前', 100),
      { id: 'nameKana', label: 'よみがな', kind: 'text', maxLength: 100 },
      { id: 'role', label: '肩書き', kind: 'text', maxLength: 100 },
      { id: 'profile', label: 'プロフィール', kind: 'textArea', maxLength: 2000 },
      { id: 'avatar', label: '写真', kind: 'media' },
      website,
    ],
  },
  {
    endpoint: 'tags',
    label: 'タグ',
    kind: 'list',
    fields: [name('タグ名', 50)],
  },
  {
    endpoint: 'audios',
    label: '音声',
    kind: 'list',
    fields: [
      title(),
      description,
      coverImage,
      { id: 'audioFile', label: '音声ファイル', kind: 'file' },
      { id: 'duration', label: '再生時間 (秒)', kind: 'number', min: 0, max: 86_400 },
      { id: 'transcript', label: '書き起こし', kind: 'richEditor', maxLength: 200_000 },
      isPublicPreview,
      writers,
      seo,
    ],
  },
  {
    endpoint: 'movies',
    label: '動画',
    kind: 'list',
    fields: [
      title(),
      description,
      coverImage,
      { id: 'videoFile', label: '動画ファイル', kind: 'file' },
      {
        id: 'embedUrl',
        label: '埋め込み URL (YouTube / Vimeo)',
        kind: 'text',
        maxLength: 500,
        urlPrefixes: ['https://www.youtube.com/embed/', 'https://player.vimeo.com/video/'],
      },
      { id: 'duration', label: '再生時間 (秒)', kind: 'number', min: 0, max: 86_400 },
      isPublicPreview,
      writers,
      seo,
    ],
  },
  {
    endpoint: 'connect',
    label: 'コネクト',
    kind: 'list',
    fields: [title(), description, coverImage, body, seo],
  },
  {
    endpoint: 'partners',
    label: 'パートナー企業',
    kind: 'list',
    fields: [
      name('企業名', 200),
      description,
      { id: 'logo', label: 'ロゴ', kind: 'media' },
      website,
    ],
  },
  {
    endpoint: 'jobs',
    label: '求人',
    kind: 'list',
    fields: [
      title(),
      { id: 'partner', label: '企業', kind: 'relation', endpoint: 'partners' },
      description,
      coverImage,
      body,
      jobChoice('employmentType', '雇用形態'),
      jobChoice('occupation', '職種'),
      jobChoice('prefecture', '勤務地 (都道府県)'),
      jobChoice('remote', 'リモート勤務'),
      { id: 'location', label: '勤務地 (詳細)', kind: 'text', maxLength: 200 },
      jobChoice('salaryUnit', '給与の単位'),
      { id: 'salaryMin', label: '給与 (下限・円)', kind: 'number', min: 0, max: 1_000_000_000 },
      { id: 'salaryMax', label: '給与 (上限・円)', kind: 'number', min: 0, max: 1_000_000_000 },
      { id: 'hours', label: '勤務時間', kind: 'text', maxLength: 200 },
      {
        id: 'applyUrl',
        label: '応募先 URL',
        kind: 'text',
        maxLength: 500,
        urlPrefixes: ['https://', 'http://'],
      },
      {
        id: 'applyEmail',
        label: '応募先メールアドレス',
        kind: 'text',
        maxLength: 254,
        address: true,
      },
      { id: 'closingDate', label: '募集締切', kind: 'date' },
      seo,
    ],
  },
  {
    // What editors choose for the home page: its 注目記事 section, in this order.
    endpoint: 'home',
    label: 'トップページ',
    kind: 'object',
    fields: [{ id: 'featuredPosts', label: '注目記事', kind: 'relationList', endpoint: 'posts' }],
  },
  objectPage('about', 'このサイトについて'),
  objectPage('faq', 'よくある質問'),
  objectPage('terms', '利用規約'),
  objectPage('specified-commercial-transactions', '特定商取引法に基づく表記'),
  objectPage('studio', 'スタジオ'),
  objectPage('biz-about', '法人の方へ'),
];

const byEndpoint = new Map(CONTENT_MODEL.map((e) => [e.endpoint, e]));

export function findEndpoint(endpoint: string): EndpointDef | undefined {
  return byEndpoint.get(endpoint);
}

export function findField(def: EndpointDef, fieldId: string): FieldDef | undefined {
  return def.fields.find((f) => f.id === fieldId);
}

/** The system fields every list item has (microCMS). */
export const SYSTEM_DATE_FIELDS = ['createdAt', 'updatedAt', 'publishedAt', 'revisedAt'] as const;
export type SystemDateField = (typeof SYSTEM_DATE_FIELDS)[number];

/** Field kinds whose text is indexed for `q`. */
export const SEARCHABLE_KINDS: readonly FieldKind[] = ['text', 'textArea', 'richEditor'];
