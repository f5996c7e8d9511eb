import 'server-only';
import { BULK_ACTIONS, type BulkAction } from '@/lib/admin-content';
import type { EndpointDef } from '@/lib/cms/model';
import { z } from '@/lib/zod';
import { type Actor, recordActorAction } from '@/server/platform/audit/audit-log';
import { CONTENT_ID } from '@/server/features/content';
import type { Db } from '@/server/platform/db/client';
import { deleteItem, runWorkflow } from './actions';
import { findItem, titleFieldOf } from './items';
import { consoleStatusOf } from './status';

/**
 * Publish, unpublish or delete several items of a list at once (the content list's bulk
 * actions). Each item goes through the editor's own step, with its checks, one after the
 * other: one refused item does not stop the others, and each refusal is reported by title in
 * the editor's words. Each item names the version the confirmation screen showed
 * (`id@updatedAt`): an item changed since is refused, never acted on unseen.
 */

export const MAX_BULK_ITEMS = 100;
const NONE_CHOSEN = '項目を1件以上選んでください。';

const item = z
  .string()
  .max(100)
  .transform((value) => {
    const at = value.lastIndexOf('@');
    return { id: value.slice(0, at), updatedAt: value.slice(at + 1) };
  })
  .pipe(
    z.object({
      id: z.string().regex(CONTENT_ID),
      updatedAt: z.iso.datetime({ offset: true }),
    }),
  );

export const bulkSchema = z.object({
  action: z.enum(BULK_ACTIONS),
  // A form's `items` always arrive as a list (form-endpoint.ts LIST_FIELDS); none checked: absent.
  items: z
    .array(item, { error: NONE_CHOSEN })
    .min(1, { error: NONE_CHOSEN })
    .max(MAX_BULK_ITEMS, { error: `一度に選べるのは${MAX_BULK_ITEMS}件までです。` }),
});
export type BulkInput = z.infer<typeof bulkSchema>;

export type BulkOutcome = { id: string; title: string; ok: boolean; message: string };

/** 「N件を公開しました」 and 「公開できませんでした」, per action. */
const WORDS: Readonly<Record<BulkAction, { done: (n: number) => string; verb: string }>> = {
  publish: { done: (n) => `${n}件を公開しました。`, verb: '公開' },
  unpublish: { done: (n) => `${n}件の公開を停止しました。`, verb: '公開を停止' },
  delete: { done: (n) => `${n}件を削除しました。`, verb: '削除' },
};

const NOT_PUBLISHED = 'この項目は公開されていません。';
const CHANGED = '確認画面を開いたあとに、ほかの人が更新しました。';

export async function runBulk(
  db: Db,
  def: EndpointDef,
  input: BulkInput,
  actor: Actor,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = [];
  const titleField = titleFieldOf(def);
  for (const { id, updatedAt } of input.items) {
    const row = await findItem(db, def, id);
    const data = row ? (row.draftData ?? row.data ?? {}) : {};
    const titleValue = titleField ? data[titleField] : undefined;
    const title = typeof titleValue === 'string' && titleValue ? titleValue : id;
    const base = new Date(updatedAt).toISOString();
    const refuse = (message: string) => outcomes.push({ id, title, ok: false, message });
    if (!row) {
      refuse('この項目は削除されたか、見つかりません。');
      continue;
    }
    if (row.updatedAt.toISOString() !== base) {
      refuse(CHANGED);
      continue;
    }
    if (input.action === 'unpublish' && consoleStatusOf(row) === 'draft') {
      refuse(NOT_PUBLISHED);
      continue;
    }
    const result =
      input.action === 'delete'
        ? await deleteItem(db, def, id, `user:${actor.userId}`)
        : await runWorkflow(
            db,
            def,
            id,
            { action: input.action, baseUpdatedAt: base },
            `user:${actor.userId}`,
          );
    outcomes.push({ id, title, ok: result.body.ok, message: result.body.message });
  }
  await recordActorAction(db, actor, {
    action: 'content-bulk',
    target: `content:${def.endpoint}`,
    detail: {
      action: input.action,
      done: outcomes.filter((o) => o.ok).map((o) => o.id),
      refused: outcomes.filter((o) => !o.ok).map((o) => o.id),
    },
  });
  return outcomes;
}

/** The one line above the list afterwards: how many were done, how many were not. */
export function bulkSummary(action: BulkAction, outcomes: readonly BulkOutcome[]): string {
  const done = outcomes.filter((o) => o.ok).length;
  const refused = outcomes.length - done;
  const words = WORDS[action];
  if (refused === 0) return words.done(done);
  if (done === 0) return `選んだ${refused}件はどれも${words.verb}できませんでした。`;
  return `${words.done(done)}${refused}件は${words.verb}できませんでした。`;
}
