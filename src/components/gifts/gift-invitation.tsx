import { PlanChoices, planOffers, trialNote } from '@/components/content/paywall-plans';
import { env } from '@/env';
import { GIFT_DAYS } from '@/lib/gifts/gift-link';
import { trialDaysFor } from '@/server/features/billing/checkout';
import { getUser } from '@/server/features/identity/session';
import { getDb } from '@/server/platform/db/client';
import styles from './gifts.module.css';

/**
 * The free days this reader would have, decided as the final confirmation screen decides them:
 * their own for a member (`trialDaysFor`), a new account's for a visitor. The gifted page is its
 * reader's alone (never cached), so it may say them plainly. None when they cannot be read: a
 * trial is not promised unchecked.
 */
async function readerTrialDays(userId: string | null): Promise<number> {
  if (!userId) return env().BILLING_TRIAL_DAYS;
  try {
    return await trialDaysFor(await getDb(), userId);
  } catch (error) {
    console.warn('[gift] the reader’s trial could not be read:', error);
    return 0;
  }
}

/**
 * The end of a post opened by a gift (docs/decisions/037-gift-articles.md; 日経電子版's gift ends
 * so): what a paid plan gives, each plan with its price with tax and the reader's trial, as the
 * paywall offers them. Every link carries the post itself as `next`, without the gift's token: a
 * paid reader needs none, and `next` becomes the checkout's return address, which the billing
 * provider sees.
 */
export async function GiftInvitation({ returnTo }: { returnTo: string }) {
  return await PlanInvitation({
    returnTo,
    text: `ギフトの記事は、贈られてから${GIFT_DAYS}日間お読みいただけます。有料プランに登録すると、この記事もほかの記事も、いつでも全文をお読みいただけます。`,
  });
}

/**
 * The invitation to subscribe that ends a post opened for one reader alone (a gift): the plans
 * with their prices and this reader's own trial, which such a page may say plainly. `members`:
 * a metered read (docs/decisions/055-metered-wall.md), a page every metered free member of the
 * post shares, so nothing of the reader is read: the trial is said with its condition, as the
 * free members' paywall says it.
 */
export async function PlanInvitation({
  returnTo,
  text,
  members = false,
}: {
  returnTo: string;
  text: string;
  members?: boolean;
}) {
  const user = members ? null : await getUser();
  const [offers, trial] = await Promise.all([
    planOffers(),
    members
      ? trialNote(env().BILLING_TRIAL_DAYS, 'members')
      : readerTrialDays(user?.id ?? null).then((days) => trialNote(days, 'reader')),
  ]);
  return (
    <aside className={styles.invitation} aria-labelledby="gift-invitation-heading">
      <h2 id="gift-invitation-heading" className={styles.invitationHeading}>
        有料会員になると、すべての記事が読めます
      </h2>
      <p className={styles.invitationText}>{text}</p>
      <PlanChoices
        offers={offers}
        next={returnTo}
        trial={trial}
        plansLabel={members || user ? '有料プランを見る' : '料金プランを見る'}
      />
    </aside>
  );
}
