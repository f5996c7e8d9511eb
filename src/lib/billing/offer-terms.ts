import { formatYen } from '@/lib/format';

/** A plan as an offer reads it: its tax-inclusive yen price per period, and its product. */
type OfferPlan = {
  amount: number;
  interval: 'month' | 'year';
  intervalCount: number;
  productId?: string;
};

/** One period's unit: "月", "年", "3か月". */
function unitOf(plan: OfferPlan): string {
  if (plan.intervalCount <= 1) return plan.interval === 'month' ? '月' : '年';
  return plan.interval === 'month' ? `${plan.intervalCount}か月` : `${plan.intervalCount}年`;
}

/**
 * An offer (a promotion code of the provider) as the plans page and the final confirmation
 * screen state it: the price while the discount lasts, how long it lasts, and the regular
 * price after — the 特定商取引法's final confirmation terms for a discounted start
 * (docs/decisions: offers). Pure: the server decides whether the code is valid.
 */

export type OfferView = {
  code: string;
  name: string | null;
  percentOff: number | null;
  amountOff: number | null;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths: number | null;
  firstTimeOnly: boolean;
  /** The provider's products it applies to; null for every plan. */
  products: string[] | null;
};

export type OfferTerms = {
  /** Yen, tax included, of each discounted charge. */
  discounted: number;
  /** The charges discounted; null while the plan lasts. */
  charges: number | null;
  /** "初月", "最初の3か月", "初年度", "毎回". */
  lead: string;
  /** "初月 ¥550（通常 ¥1,100）". */
  label: string;
  /**
   * What readers call the offer on this plan: the discount and its period, "初月半額" on a
   * monthly plan, "初年度半額" on a yearly one. Made from the coupon's terms, never from the
   * name staff gave it, which names one plan's period whatever plans the coupon applies to.
   */
  name: string;
  /** What is charged after the discount ends, or that it does not end. */
  after: string;
};

/** What the offer takes off one charge of `amount` (as the provider rounds, to the yen). */
export function offerAmountOff(offer: OfferView, amount: number): number {
  if (offer.percentOff !== null) return Math.round((amount * offer.percentOff) / 100);
  return Math.min(offer.amountOff ?? 0, amount);
}

/** The offer's terms on this plan; null when the offer does not apply to it. */
export function offerTerms(offer: OfferView, plan: OfferPlan): OfferTerms | null {
  if (offer.products && (!plan.productId || !offer.products.includes(plan.productId))) {
    return null;
  }
  const off = offerAmountOff(offer, plan.amount);
  if (off <= 0) return null;
  const discounted = plan.amount - off;
  const monthsPerCharge = (plan.interval === 'year' ? 12 : 1) * Math.max(1, plan.intervalCount);
  const charges =
    offer.duration === 'forever'
      ? null
      : offer.duration === 'once'
        ? 1
        : Math.max(1, Math.ceil((offer.durationInMonths ?? 1) / monthsPerCharge));
  const unit = unitOf(plan);
  const lead =
    charges === null
      ? '毎回'
      : charges === 1
        ? plan.interval === 'month' && plan.intervalCount <= 1
          ? '初月'
          : plan.interval === 'year' && plan.intervalCount <= 1
            ? '初年度'
            : '初回'
        : `最初の${charges}回（${charges * monthsPerCharge}か月）`;
  const label = `${lead} ${formatYen(discounted)}（通常 ${formatYen(plan.amount)}）`;
  const name =
    discounted === 0
      ? `${lead}無料`
      : offer.percentOff === 50
        ? `${lead}半額`
        : offer.percentOff !== null
          ? `${lead}${offer.percentOff}%オフ`
          : `${lead} ${formatYen(off)}引き`;
  const after =
    charges === null
      ? `割引後の ${formatYen(discounted)}（税込）／${unit} が、解約されるまで毎回適用されます。`
      : `割引は${lead}のお支払いに適用され、その後は通常の ${formatYen(plan.amount)}（税込）／${unit} です。`;
  return { discounted, charges, lead, label, name, after };
}
