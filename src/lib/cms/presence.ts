import { formatDateTime } from '@/lib/format';
import { z } from '@/lib/zod';

/**
 * Editing presence in the console (docs/decisions/038-editing-presence.md): an open editor
 * tells the server every HEARTBEAT_MS that its user has the item open; an entry not renewed
 * within PRESENCE_TTL_MS is gone. Three heartbeats make the window, so one lost request or a
 * slow instance does not make an editor vanish, and a closed tab is forgotten within a minute.
 * Shared by the server (what is live) and the editor (what it says).
 */

export const HEARTBEAT_MS = 15_000;
export const PRESENCE_TTL_MS = 45_000;

const entrySchema = z.object({ name: z.string().max(200), since: z.iso.datetime() });

/** Someone else with the item open, as the editor shows them. */
export type PresenceEntry = z.infer<typeof entrySchema>;

/** The heartbeat's answer: who else is there, and the item's last save as stored now. */
export const presenceAnswerSchema = z.object({
  /** The server's clock when it answered: "3分前から" is counted from it, not the browser's. */
  at: z.iso.datetime(),
  editors: z.array(entrySchema).max(100),
  /**
   * The stored item's last save (null: not written yet): `by` a staff member's name (null for
   * the content API or scheduled publishing), `mine` when the viewer made it.
   */
  saved: z
    .object({ updatedAt: z.iso.datetime(), by: z.string().max(200).nullable(), mine: z.boolean() })
    .nullable(),
});
export type PresenceAnswer = z.infer<typeof presenceAnswerSchema>;

/** The oldest last-seen time that still counts as present at `now`. */
export function presenceCutoff(now: Date): Date {
  return new Date(now.getTime() - PRESENCE_TTL_MS);
}

/** Whether an entry last renewed at `lastSeen` is still live at `now`. */
export function isPresent(lastSeen: Date, now: Date): boolean {
  return lastSeen.getTime() >= presenceCutoff(now).getTime();
}

/** "さきほどから", "3分前から", "2時間前から": how long someone has had it open. */
export function sinceText(since: string | Date, now: Date): string {
  const minutes = Math.floor((now.getTime() - new Date(since).getTime()) / 60_000);
  if (!(minutes >= 1)) return 'さきほどから';
  if (minutes < 60) return `${minutes}分前から`;
  return `${Math.floor(minutes / 60)}時間前から`;
}

/** 「佐藤さんが3分前から編集中です」 */
export function editingSentence(entry: PresenceEntry, now: Date): string {
  return `${entry.name}さんが${sinceText(entry.since, now)}編集中です`;
}

/** The content list's marker: 「佐藤さんが編集中」, 「佐藤さんほか1人が編集中」. */
export function editingMarker(names: readonly string[]): string {
  const [first, ...rest] = names;
  if (first === undefined) return '';
  return rest.length ? `${first}さんほか${rest.length}人が編集中` : `${first}さんが編集中`;
}

/**
 * The warning when someone else saved the item after this editor loaded it: saving now would
 * be a conflict (the save still refuses it; this says so before the editor tries). Null when
 * nothing changed since `baseUpdatedAt` (null: the editor started from nothing) or the change
 * is the viewer's own.
 */
export function savedMeanwhile(
  answer: PresenceAnswer,
  baseUpdatedAt: string | null,
): string | null {
  const saved = answer.saved;
  if (!saved || saved.mine) return null;
  if (baseUpdatedAt !== null && Date.parse(saved.updatedAt) <= Date.parse(baseUpdatedAt))
    return null;
  const at = formatDateTime(saved.updatedAt);
  const what = saved.by
    ? `${saved.by}さんが${at}にこの項目を保存しました。`
    : `この項目は${at}に更新されました。`;
  return `${what}このまま保存すると競合します。`;
}
