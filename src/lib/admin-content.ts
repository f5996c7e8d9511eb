/**
 * The editorial console's content editor, as the browser and the server both see it: the
 * item the editor page hands to the form, the JSON the form sends, and what the server
 * answers. The server side is src/server/features/console/; the form is
 * src/components/admin/content/.
 */

import type { SubmissionState } from '@/lib/access/console-permissions';
import type { EndpointDef } from '@/lib/cms/model';

/** Where an item stands, as the console lists it. */
export type ConsoleStatus = 'draft' | 'scheduled' | 'published' | 'changed';

export const CONSOLE_STATUS_LABELS: Readonly<Record<ConsoleStatus, string>> = {
  draft: '下書き',
  scheduled: '予約公開',
  published: '公開中',
  changed: '公開中 (未公開の変更あり)',
};

/** A referenced item as a picker shows it. */
export type ReferenceOption = { id: string; label: string; status: ConsoleStatus };

/** A picked image (media field) or file (file field), in the content API's write shape. */
export type MediaValue = { url: string; width?: number; height?: number; alt?: string };
export type FileValue = { url: string; fileSize?: number };

/**
 * The item handed to the editor form. `fields` is the working copy (the draft if there is
 * one, else the published version) in the content API's write shape: text, numbers,
 * booleans, dates as ISO strings, selects as string arrays, a relation as its id, a
 * relation list as ids, media and files as objects. A field with no value has no key.
 */
export type EditorItem = {
  endpoint: string;
  /** '' for an object endpoint, and for a list item not yet created. */
  id: string;
  isNew: boolean;
  fields: Record<string, unknown>;
  status: ConsoleStatus;
  /** The conflict token: sent back as `baseUpdatedAt` with every write. Null when new. */
  updatedAt: string | null;
  scheduledAt: string | null;
  publishedAt: string | null;
  /** The site page that previews the working copy (draft key included), when it has one. */
  previewUrl: string | null;
  /** The site page of the published version, when there is one. */
  publicUrl: string | null;
  /** Labels of the items the relation fields point at, by endpoint. */
  references: Record<string, ReferenceOption[]>;
  /** The id field of a list item (its slug); absent for an object endpoint. */
  slug?: SlugField;
};

/** What the editor's id field shows (docs/decisions/033-slugs-and-redirects.md). */
export type SlugField = {
  /** The site's address before the id (`https://…/posts/`); null: the kind has no pages. */
  urlPrefix: string | null;
  /** A new item's id when the field is left empty (a random one, as before slugs). */
  suggestion: string;
  /** Whether the id can still be changed (not for partners, whose id is their contract's). */
  renamable: boolean;
  /** Ids the item had before, whose URLs now answer 301 to its own. */
  previousIds: string[];
};

export type RenameRequest = { id: string; baseUpdatedAt: string };

export type EditorProps = {
  def: EndpointDef;
  item: EditorItem;
  /** False for a contributor (src/lib/access/console-permissions.ts): no publishing steps. */
  canPublish?: boolean;
};

/** What the viewer may do on the editor page, and where a contributor's item stands. */
export type EditorAccess = {
  /** Publish, schedule, unpublish, delete, newsletter: staff only. */
  publish: boolean;
  save: boolean;
  /** The item's review, when it is a contributor's; null otherwise. */
  submission: {
    state: SubmissionState;
    reviewComment: string | null;
    submittedAt: string | null;
    mine: boolean;
  } | null;
};

/** The path segment that stands for an object endpoint's one item in console URLs. */
export const OBJECT_ITEM = '-';

/** Console page and API paths, in one place. */
export const consolePaths = {
  list: (endpoint: string) => `/admin/content/${endpoint}`,
  create: (endpoint: string) => `/admin/content/${endpoint}/new`,
  edit: (endpoint: string, id: string) => `/admin/content/${endpoint}/${id || OBJECT_ITEM}`,
  history: (endpoint: string, id: string) =>
    `/admin/content/${endpoint}/${id || OBJECT_ITEM}/history`,
  /** POST { fields } → 201 { id, updatedAt }: creates a draft (list endpoints). */
  apiCreate: (endpoint: string) => `/api/admin/content/${endpoint}`,
  /** PUT { fields, baseUpdatedAt, autosave } → SaveAnswer. DELETE → 200 or 400 { message }. */
  apiItem: (endpoint: string, id: string) => `/api/admin/content/${endpoint}/${id || OBJECT_ITEM}`,
  /** POST { action, baseUpdatedAt, at? } → SaveAnswer. */
  apiWorkflow: (endpoint: string, id: string) =>
    `/api/admin/content/${endpoint}/${id || OBJECT_ITEM}/workflow`,
  /** POST { id, baseUpdatedAt } → SaveAnswer with the new id; the old URL then redirects. */
  apiRename: (endpoint: string, id: string) => `/api/admin/content/${endpoint}/${id}/rename`,
  /** POST { leaving? } → PresenceAnswer: the editor's heartbeat (src/lib/cms/presence.ts). */
  apiPresence: (endpoint: string, id: string) =>
    `/api/admin/content/${endpoint}/${id || OBJECT_ITEM}/presence`,
  /** POST (form or JSON) { version } → 303 to the editor / 200 SaveAnswer. */
  apiRestore: (endpoint: string, id: string) =>
    `/api/admin/content/${endpoint}/${id || OBJECT_ITEM}/restore`,
  /** POST (form or JSON) { decision: submit | approve | return, baseUpdatedAt, comment? }. */
  apiReview: (endpoint: string, id: string) =>
    `/api/admin/content/${endpoint}/${id || OBJECT_ITEM}/review`,
  /** GET ?action=&ids=a&ids=b: the bulk action's confirmation screen. */
  bulkConfirm: (endpoint: string) => `/admin/content/${endpoint}/bulk`,
  /** POST (form) { action, items: id@updatedAt… } → 303 to the list with what was done. */
  apiBulk: (endpoint: string) => `/api/admin/content/${endpoint}/bulk`,
  /** GET ?q=&ids=a,b → { items: ReferenceOption[] } (at most 20). */
  apiLookup: (endpoint: string) => `/api/admin/content/${endpoint}/lookup`,
} as const;

export type SaveRequest = {
  fields: Record<string, unknown>;
  /** The `updatedAt` the form started from; null only when creating. */
  baseUpdatedAt: string | null;
  /** An autosave: saved as a draft, folded into the editor's last version when recent. */
  autosave?: boolean;
  /** Creating a list item: the id (slug) the editor chose, or the one suggested. */
  id?: string;
};

/** What a content list does to several selected items at once. */
export const BULK_ACTIONS = ['publish', 'unpublish', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const BULK_ACTION_LABELS: Readonly<Record<BulkAction, string>> = {
  publish: '公開する',
  unpublish: '公開を停止する',
  delete: '削除する',
};

/** The bulk confirmation screen: the chosen items as they are now. */
export type BulkConfirmProps = {
  def: EndpointDef;
  action: BulkAction;
  rows: ContentListRow[];
  /** Chosen ids that no longer exist. */
  missing: string[];
};

export const WORKFLOW_ACTIONS = ['publish', 'schedule', 'unschedule', 'unpublish'] as const;
export type WorkflowAction = (typeof WORKFLOW_ACTIONS)[number];

export type WorkflowRequest = {
  action: WorkflowAction;
  baseUpdatedAt: string;
  /** schedule: when, as an ISO date-time in the future. */
  at?: string;
};

/** 200 after a save or a workflow step. */
export type SaveAnswer = {
  ok: true;
  id: string;
  updatedAt: string;
  status: ConsoleStatus;
  scheduledAt: string | null;
  previewUrl: string | null;
  publicUrl: string | null;
  message: string;
};

/**
 * 400: `fieldErrors` in Japanese by field id (and `message` for the form).
 * 409: someone else saved since `baseUpdatedAt`: who (a name or e-mail, null for an API key)
 *      and when; nothing was written.
 * 404: the item is gone (or the viewer is not staff).
 */
export type ErrorAnswer = {
  ok: false;
  message: string;
  fieldErrors?: Record<string, string>;
  conflict?: { updatedAt: string; by: string | null };
};

/** The sorts a content list offers (newest first, except by title). */
export const CONSOLE_SORTS = ['updated', 'published', 'created', 'title'] as const;
export type ConsoleSort = (typeof CONSOLE_SORTS)[number];

/** A content list's query, as it lives in the URL (?q=&status=&category=&sort=&page=). */
export type ContentListQuery = {
  q: string;
  status: ConsoleStatus | '';
  /** posts only: a `categories` id. */
  category: string;
  sort: ConsoleSort;
  page: number;
};

export type ContentListRow = {
  id: string;
  /** The working copy's title (or name); '' when it has none. */
  title: string;
  status: ConsoleStatus;
  scheduledAt: string | null;
  updatedAt: string;
  publishedAt: string | null;
  /** Who wrote last, as shown (a name or e-mail; 'API' for a key; null if unknown). */
  updatedBy: string | null;
  /** A contributor's item: where its review stands; null for staff's own items. */
  review?: SubmissionState | null;
  /** Who else has it open in the editor now (src/lib/cms/presence.ts), longest-open first. */
  editing?: string[];
};

export type ContentListProps = {
  def: EndpointDef;
  rows: ContentListRow[];
  totalCount: number;
  perPage: number;
  query: ContentListQuery;
  /** The category filter's options (posts only), else null. */
  categories: ReferenceOption[] | null;
  /** The viewer may select items and publish, unpublish or delete them at once. */
  bulk?: boolean;
};

/** One version in an item's history (newest first). */
export type VersionRow = {
  id: number;
  action: VersionAction;
  /** Who, as shown: a name or e-mail, 'API', or 'システム (予約公開)'. */
  actor: string;
  createdAt: string;
  /** The content API status after the change: PUBLISH, DRAFT, PUBLISH_AND_DRAFT, CLOSED. */
  status: string;
};

export type VersionAction =
  | 'create'
  | 'save'
  | 'autosave'
  | 'publish'
  | 'schedule'
  | 'unschedule'
  | 'unpublish'
  | 'restore'
  | 'rename'
  | 'api';

export const VERSION_ACTION_LABELS: Readonly<Record<VersionAction, string>> = {
  create: '作成',
  save: '保存',
  autosave: '自動保存',
  publish: '公開',
  schedule: '予約公開を設定',
  unschedule: '予約公開を取り消し',
  unpublish: '公開を停止',
  restore: '以前の版に戻す',
  rename: 'URL (ID) を変更',
  api: 'コンテンツ API で更新',
};

export type HistoryProps = {
  def: EndpointDef;
  endpoint: string;
  /** '' for an object endpoint. */
  id: string;
  title: string;
  versions: VersionRow[];
  /** Two versions compared (?from=&to=), with their working copies; null when not chosen. */
  compare: {
    from: VersionRow & { data: Record<string, unknown> | null };
    to: VersionRow & { data: Record<string, unknown> | null };
  } | null;
};
