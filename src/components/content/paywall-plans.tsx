import { Link } from '@/components/layout/site-link';
import { planPrice, recommendedPlanKey } from '@/components/billing/billing-format';
import { toPlanView } from '@/components/billing/views';
import { confirmPath, plansPath } from '@/lib/confirm-path';
import { type Plan, shownPlans } from '@/server/features/billing/catalogue';
import { getDb } from '@/server/platform/db/client';
import styles from './paywall.module.css';

/** A paid plan as a call to subscribe offers it: its name, its price with tax, whether it is the one primary. */
export type PlanOffer = { key: Plan['key']; name: string; price: string; primary: boolean };

/**
 * The paid plans on sale, from the same catalogue as /service-plans (prices with tax); none
 * when it cannot be read (the link to the plans page still leads there).
 */
export async function planOffers(): Promise<PlanOffer[]> {
  try {
    const onSale = (await shownPlans.get(await getDb()))
      .filter((plan) => plan.active)
      .map(toPlanView);
    // The plans page's own choice of its one primary button (the least a month).
    const recommended = recommendedPlanKey(onSale);
    return onSale.map((plan) => ({
      key: plan.key,
      name: plan.name,
      price: planPrice(plan),
      primary: plan.key === recommended,
    }));
  } catch (error) {
    console.warn('[paywall] the plan catalogue could not be read:', error);
    return [];
  }
}

/**
 * What a call to subscribe says of the free days (BILLING_TRIAL_DAYS, given by `trialDaysFor` to
 * every reader who never had a plan). `reader`: the days are this reader's (a visitor, whose new
 * account has them, or a reader whose own trial was looked up). `members`: the page is shared by
 * every free member (docs/decisions/007-pages-per-audience.md), some of whom had a plan before,
 * so the condition is said with it. Null without a trial.
 */
export function trialNote(days: number, whose: 'reader' | 'members'): string | null {
  if (days <= 0) return null;
  const free = `最初の${days}日間は無料`;
  return whose === 'members' ? `初めて有料プランをお申し込みの方は、${free}` : free;
}

/**
 * The plans as buttons, each to its final confirmation screen carrying `next` (the path ends
 * back there), the recommended one primary; the trial above them; the plans page as a plain
 * link below. Each button is its own box of at least 44 px (tapTarget, composed by each).
 */
export function PlanChoices({
  offers,
  next,
  trial,
  plansLabel,
}: {
  offers: readonly PlanOffer[];
  next: string;
  trial: string | null;
  plansLabel: string;
}) {
  return (
    <>
      {trial ? <p className={styles.trial}>{trial}</p> : null}
      {offers.length > 0 ? (
        <ul className={styles.plans} aria-label="有料プラン">
          {offers.map((offer) => (
            <li key={offer.key}>
              <Link
                href={confirmPath(offer.key, next)}
                prefetch={false}
                className={offer.primary ? styles.primary : styles.secondary}
              >
                <span className={styles.planName}>{offer.name}で申し込む</span>
                {/* A price never breaks inside: "¥11,000（税" / "込）／年" reads badly. */}
                <span className={styles.price}>{offer.price}</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <p className={styles.plansLink}>
        {/* The plans page is rendered for each viewer: nothing to gain from prefetching it. */}
        <Link href={plansPath(next)} prefetch={false}>
          {plansLabel}
        </Link>
      </p>
    </>
  );
}
