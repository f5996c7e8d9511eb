import 'server-only';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import { userPrivateProfiles, userPublicProfiles } from '@/server/platform/db/schema';
import { eq } from 'drizzle-orm';
import { sendMail } from '@/server/platform/mail/mailer';
import { giftDeliveryMail, giftEndingMail } from './mails';
import {
  type GiftWithPurchase,
  claimDelivery,
  claimReminder,
  dueDeliveries,
  dueReminders,
  giverNameOf,
  newGiftToken,
  planGiftOf,
  releaseDelivery,
} from './store';

/**
 * The gifts' scheduled work (docs/decisions/054-gift-subscriptions.md): a paid gift's mail at
 * its delivery time (at once when the payment arrives on or after it), and the reminder a week
 * before a gift period ends. Each step is claimed by a conditional update first, so several
 * instances and repeated rounds send each mail once; a mail that could not be sent gives its
 * delivery back for the next round (with a new token: the old one was never seen).
 */

export const GIFT_ROUND_INTERVAL_MS = 60_000;

async function deliver(db: Db, gift: GiftWithPurchase, now: Date): Promise<boolean> {
  if (!gift.giverId) return false;
  const { token, hash } = newGiftToken();
  if (!(await claimDelivery(db, gift.purchaseId, hash, now))) return false;
  const giverName = (await giverNameOf(db, gift.giverId)) ?? '会員';
  try {
    await sendMail(
      db,
      giftDeliveryMail(gift.recipientEmail, {
        giverName,
        giverId: gift.giverId,
        months: gift.months,
        message: gift.message,
        token,
      }),
    );
  } catch (error) {
    await releaseDelivery(db, gift.purchaseId);
    throw error;
  }
  return true;
}

/** Sends the gifts due by `now`; answers how many. */
export async function deliverDueGifts(db: Db, now = new Date()): Promise<number> {
  let sent = 0;
  for (const gift of await dueDeliveries(db, now)) if (await deliver(db, gift, now)) sent++;
  return sent;
}

/** A gift just paid: sent now if its time has come (else the runner sends it on its day). */
export async function deliverIfDue(db: Db, purchaseId: string, now = new Date()): Promise<void> {
  const gift = await planGiftOf(db, purchaseId);
  if (gift?.state === 'paid' && !gift.deliveredAt && gift.deliverAt <= now) {
    await deliver(db, gift, now);
  }
}

async function recipientOf(db: Db, userId: string) {
  const [row] = await db
    .select({ email: userPrivateProfiles.email, name: userPublicProfiles.displayName })
    .from(userPrivateProfiles)
    .innerJoin(userPublicProfiles, eq(userPublicProfiles.userId, userPrivateProfiles.userId))
    .where(eq(userPrivateProfiles.userId, userId));
  return row ?? null;
}

/** Sends the reminders of gift periods ending within a week of `now`; answers how many. */
export async function remindEndingGifts(db: Db, now = new Date()): Promise<number> {
  let sent = 0;
  for (const gift of await dueReminders(db, now)) {
    const to = gift.redeemedBy ? await recipientOf(db, gift.redeemedBy) : null;
    if (!to || !gift.grantEnd || !(await claimReminder(db, gift.purchaseId, now))) continue;
    await sendMail(db, giftEndingMail(to.email, to.name, gift.grantEnd));
    sent++;
  }
  return sent;
}

const runner = singleton('gift-plans-runner', () => ({ timer: null as NodeJS.Timeout | null }));

/** Every instance runs the rounds; the claims keep them from doubling up. */
export function startGiftRunner(db: Db): void {
  if (runner.timer) return;
  const tick = () =>
    void (async () => {
      await deliverDueGifts(db);
      await remindEndingGifts(db);
    })().catch((error: unknown) => console.error('[gifts] scheduled gift mails failed:', error));
  runner.timer = setInterval(tick, GIFT_ROUND_INTERVAL_MS);
  runner.timer.unref();
  tick();
}

export function stopGiftRunner(): void {
  if (runner.timer) clearInterval(runner.timer);
  runner.timer = null;
}
