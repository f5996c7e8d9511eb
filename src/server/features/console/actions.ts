import 'server-only';
import type { ErrorAnswer, SaveAnswer, WorkflowAction } from '@/lib/admin-content';
import type { Db } from '@/server/platform/db/client';
import { CmsApiError, ContentConflict } from '@/server/services/cms/errors';
import type { EndpointDef } from '@/lib/cms/model';
import { findVersion } from '@/server/services/cms/versions';
import { renameContent } from '@/server/services/cms/rename';
import { SLUG_MESSAGES } from '@/lib/cms/slug';
import { actorLabels } from './actors';
import { checkFields } from './field-errors';
import { findItem, itemState } from './items';
import {
  type WriteContext,
  createContent,
  deleteContent,
  publishContent,
  scheduleContent,
  unpublishContent,
  updateContent,
} from '@/server/services/cms/writes';

/**
 * The editor's writes, over the content service's own store (so the content API, the site's
 * caches and the item's history see them like any other write). Each answers what the editor
 * shows next: the item's new state, or why nothing was written.
 */

export type ActionResult =
  { status: 200 | 201; body: SaveAnswer } | { status: 400 | 404 | 409; body: ErrorAnswer };

const MESSAGES = {
  invalid: '入力内容を確認してください。',
  gone: 'この項目は削除されたか、見つかりません。',
  empty: '保存された内容がないため、公開できません。先に保存してください。',
  notPublished: 'この項目は公開されていません。',
  pastSchedule: '予約公開の日時には、現在より後の日時を指定してください。',
  referenced:
    'ほかのコンテンツから参照されているため削除できません。参照している項目から外してから削除してください。',
  missingReference: '選んだ参照先の項目が見つかりません。削除された可能性があります。',
  closed: '公開終了の項目です。',
  restoreMissing: 'この版が参照している項目が削除されているため、この版には戻せません。',
} as const;

const DONE: Readonly<Record<string, string>> = {
  create: '下書きを作成しました。',
  save: '下書きを保存しました。',
  autosave: '自動保存しました。',
  publish: '公開しました。',
  schedule: '予約公開を設定しました。',
  unschedule: '予約公開を取り消しました。',
  unpublish: '公開を停止しました。下書きに戻っています。',
  restore: '選んだ版の内容を下書きに戻しました。公開するまでサイトには反映されません。',
  rename: 'URL を変更しました。以前の URL は新しい URL へ転送されます。',
};

type Failure = { status: 400 | 404 | 409; body: ErrorAnswer };

const failure = (status: Failure['status'], body: Omit<ErrorAnswer, 'ok'>): Failure => ({
  status,
  body: { ok: false, ...body },
});

async function answer(
  db: Db,
  def: EndpointDef,
  id: string,
  message: string,
  status: 200 | 201 = 200,
): Promise<ActionResult> {
  const row = await findItem(db, def, id);
  if (!row) return failure(404, { message: MESSAGES.gone });
  return { status, body: { ok: true, id: row.id, message, ...itemState(def, row) } };
}

/**
 * The store's refusals, by their code, in the editor's words (the content API answers them in
 * microCMS's English); any other refusal of the store is the editor's 400.
 */
const STORE_REFUSALS: Readonly<Record<string, readonly [Failure['status'], string]>> = {
  'content-missing-reference': [400, MESSAGES.missingReference],
  'content-referenced': [400, MESSAGES.referenced],
  'content-not-found': [404, MESSAGES.gone],
  'content-empty': [400, MESSAGES.empty],
  'content-not-published': [400, MESSAGES.notPublished],
  'content-id-fixed': [400, 'この種類の項目は ID (URL) を変更できません。'],
  'content-id-unchanged': [400, '今と同じ ID です。変更する場合は別の ID を入力してください。'],
};

/** What the store refuses, in the editor's words; anything else is a real failure. */
async function refusal(db: Db, error: unknown): Promise<Failure> {
  if (error instanceof ContentConflict) {
    const labels = await actorLabels(db, [error.updatedBy]);
    return failure(409, {
      message: 'ほかの人がこの項目を更新しました。',
      conflict: {
        updatedAt: error.updatedAt,
        by: error.updatedBy ? (labels.get(error.updatedBy) ?? null) : null,
      },
    });
  }
  if (error instanceof CmsApiError) {
    const [status, message] = STORE_REFUSALS[error.code] ?? [400, MESSAGES.invalid];
    return failure(status, { message });
  }
  throw error;
}

/** The store's refusals of an id (the editor's slug), as the id field's error. */
function idRefusal(def: EndpointDef, id: string, error: unknown): Failure | null {
  if (!(error instanceof CmsApiError)) return null;
  const message =
    error.code === 'content-id-taken'
      ? SLUG_MESSAGES.taken(id, def.label)
      : error.code === 'content-id-redirected'
        ? SLUG_MESSAGES.redirected(id, def.label)
        : error.code === 'content-id-invalid'
          ? SLUG_MESSAGES.characters
          : null;
  return message ? failure(400, { message, fieldErrors: { id: message } }) : null;
}

function checked(def: EndpointDef, fields: Record<string, unknown>): ActionResult | null {
  const check = checkFields(def, fields);
  if (check.ok) return null;
  return failure(400, {
    message: check.unknownKeys.length
      ? 'この種類のコンテンツにない項目が含まれています。ページを読み込み直してください。'
      : MESSAGES.invalid,
    fieldErrors: check.fieldErrors,
  });
}

export async function createItem(
  db: Db,
  def: EndpointDef,
  fields: Record<string, unknown>,
  actor: string,
  /** The editor's slug (already checked at the boundary); none: a random id, as ever. */
  slug?: string,
): Promise<ActionResult> {
  const invalid = checked(def, fields);
  if (invalid) return invalid;
  try {
    if (def.kind === 'object') {
      await updateContent(db, def, '', fields, { draft: true }, { actor, action: 'create' });
      return await answer(db, def, '', DONE.create!, 201);
    }
    const { id } = await createContent(
      db,
      def,
      { id: slug, slug: slug !== undefined, body: fields, status: 'draft' },
      { actor },
    );
    return await answer(db, def, id, DONE.create!, 201);
  } catch (error) {
    return (slug !== undefined ? idRefusal(def, slug, error) : null) ?? refusal(db, error);
  }
}

/** Changes the item's id: its old URL then answers 301 to the new one (src/server/services/cms/rename.ts). */
export async function renameItem(
  db: Db,
  def: EndpointDef,
  id: string,
  request: { slug: string; baseUpdatedAt: string },
  actor: string,
): Promise<ActionResult> {
  try {
    const renamed = await renameContent(db, def, id, request.slug, {
      actor,
      expectedUpdatedAt: request.baseUpdatedAt,
    });
    return await answer(db, def, renamed.id, DONE.rename!);
  } catch (error) {
    return idRefusal(def, request.slug, error) ?? refusal(db, error);
  }
}

export async function saveItem(
  db: Db,
  def: EndpointDef,
  id: string,
  request: { fields: Record<string, unknown>; baseUpdatedAt: string; autosave: boolean },
  actor: string,
): Promise<ActionResult> {
  const invalid = checked(def, request.fields);
  if (invalid) return invalid;
  const ctx: WriteContext = {
    actor,
    action: request.autosave ? 'autosave' : 'save',
    expectedUpdatedAt: request.baseUpdatedAt,
  };
  try {
    const row = await findItem(db, def, id);
    // An object page is written by its first save; a list item must exist.
    if (!row && def.kind === 'list') return failure(404, { message: MESSAGES.gone });
    // Closed through the API: the console reopens it as a draft before writing to it.
    if (row?.status === 'CLOSED') {
      const { updatedAt } = await unpublishContent(db, def, id, ctx);
      ctx.expectedUpdatedAt = updatedAt.toISOString();
    }
    await updateContent(db, def, id, request.fields, { draft: true }, ctx);
    return await answer(db, def, id, request.autosave ? DONE.autosave! : DONE.save!);
  } catch (error) {
    return refusal(db, error);
  }
}

/** A schedule must be at least this far ahead, so it is not already past when it arrives. */
const SCHEDULE_MIN_LEAD_MS = 30_000;

export async function runWorkflow(
  db: Db,
  def: EndpointDef,
  id: string,
  request: { action: WorkflowAction; baseUpdatedAt: string; at?: Date },
  actor: string,
  now = new Date(),
): Promise<ActionResult> {
  // Publishing answers before the analyser has read the kanji (their readings follow).
  const ctx: WriteContext = {
    actor,
    expectedUpdatedAt: request.baseUpdatedAt,
    readingsLater: true,
  };
  try {
    switch (request.action) {
      case 'publish':
        await publishContent(db, def, id, ctx);
        break;
      case 'schedule':
        if (!request.at || request.at.getTime() < now.getTime() + SCHEDULE_MIN_LEAD_MS)
          return failure(400, {
            message: MESSAGES.pastSchedule,
            fieldErrors: { at: MESSAGES.pastSchedule },
          });
        await scheduleContent(db, def, id, request.at, ctx);
        break;
      case 'unschedule':
        await scheduleContent(db, def, id, null, ctx);
        break;
      case 'unpublish':
        await unpublishContent(db, def, id, ctx);
        break;
    }
    return await answer(db, def, id, DONE[request.action]!);
  } catch (error) {
    return refusal(db, error);
  }
}

/** Every field of the endpoint, emptied where the version has none, so restoring replaces. */
function wholeCopy(def: EndpointDef, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of def.fields) {
    const value = data[field.id];
    out[field.id] =
      value !== undefined
        ? value
        : field.kind === 'select' || field.kind === 'relationList'
          ? []
          : field.kind === 'boolean'
            ? false
            : null;
  }
  return out;
}

/** Puts an earlier version's content back into the draft (publishing stays a separate step). */
export async function restoreVersion(
  db: Db,
  def: EndpointDef,
  id: string,
  versionId: number,
  actor: string,
): Promise<ActionResult> {
  const version = await findVersion(db, def.endpoint, id, versionId);
  if (!version?.data) return failure(404, { message: 'その版は見つかりません。' });
  try {
    const row = await findItem(db, def, id);
    if (!row) return failure(404, { message: MESSAGES.gone });
    if (row.status === 'CLOSED') await unpublishContent(db, def, id, { actor });
    await updateContent(
      db,
      def,
      id,
      wholeCopy(def, version.data),
      { draft: true },
      {
        actor,
        action: 'restore',
      },
    );
    return await answer(db, def, id, DONE.restore!);
  } catch (error) {
    if (error instanceof CmsApiError && error.code === 'content-missing-reference')
      return failure(400, { message: MESSAGES.restoreMissing });
    return refusal(db, error);
  }
}

export type DeleteResult = { status: 200; body: { ok: true; message: string } } | Failure;

export async function deleteItem(
  db: Db,
  def: EndpointDef,
  id: string,
  actor: string,
): Promise<DeleteResult> {
  try {
    await deleteContent(db, def, id, { actor });
    return { status: 200, body: { ok: true, message: '削除しました。' } };
  } catch (error) {
    return refusal(db, error);
  }
}
