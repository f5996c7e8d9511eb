import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import { singleton } from '@/lib/singleton';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { type Db, getDb } from '@/server/platform/db/client';
import { siteSettings } from '@/server/platform/db/schema';

/**
 * The metered wall's allowance (docs/decisions/055-metered-wall.md): members' posts a free member
 * reads in full per Japan-time month. A console setting (`site_settings`), else the start-up
 * default METERED_READS_PER_MONTH; 0 is off. Read once per 10 s per process: the front server
 * asks on every free member's post request. A change made here is seen at once.
 */

export const METERED_SETTING = 'metered_reads_per_month';
export const METERED_MAX = 100;
const KEPT_MS = 10_000;

const kept = singleton('metered-allowance', () => ({ value: 0, until: 0 }));

/** The stored value if it is one the setting may hold, else null (the default applies). */
function parsed(value: string | undefined): number | null {
  if (value === undefined || !/^[0-9]{1,3}$/.test(value)) return null;
  const n = Number(value);
  return n <= METERED_MAX ? n : null;
}

/** The allowance now, from the database (no process copy). */
export async function readMeteredAllowance(db: Db): Promise<number> {
  const [row] = await db
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(eq(siteSettings.key, METERED_SETTING));
  return parsed(row?.value) ?? env().METERED_READS_PER_MONTH;
}

/** The allowance, read at most once per 10 s; on a failed read the metered wall is off. */
export async function meteredAllowance(now = Date.now()): Promise<number> {
  if (now < kept.until) return kept.value;
  try {
    kept.value = await readMeteredAllowance(await getDb());
  } catch (error) {
    console.warn('[metered] the allowance could not be read; the metered wall is off:', error);
    kept.value = 0;
  }
  kept.until = now + KEPT_MS;
  return kept.value;
}

/** Forgets the process copy (a change here; tests). */
export function forgetMeteredAllowance(): void {
  kept.until = 0;
}

/** An admin sets the allowance: stored, audited with the old and new value, seen here at once. */
export async function setMeteredAllowance(
  db: Db,
  value: number,
  by: { actor: string; ip: string | null },
): Promise<{ from: number; to: number }> {
  const from = await readMeteredAllowance(db);
  await db
    .insert(siteSettings)
    .values({ key: METERED_SETTING, value: String(value), updatedBy: by.actor })
    .onConflictDoUpdate({
      target: siteSettings.key,
      set: { value: String(value), updatedBy: by.actor, updatedAt: new Date() },
    });
  await recordAudit(db, {
    actor: by.actor,
    action: 'setting-changed',
    target: `setting:${METERED_SETTING}`,
    ip: by.ip,
    detail: { from, to: value },
  });
  forgetMeteredAllowance();
  return { from, to: value };
}
