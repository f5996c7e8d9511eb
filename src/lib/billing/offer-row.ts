/** One offer (a promotion code and its coupon) as the console lists it. */
export type OfferRowView = {
  id: string;
  code: string;
  name: string;
  active: boolean;
  kind: 'percent' | 'amount';
  value: number;
  duration: 'once' | 'repeating' | 'forever';
  months: number | null;
  /** Completed checkouts counted against the cap (failed and abandoned ones never count). */
  redeemed: number;
  /** Checkouts that completed after the cap was reached: honoured, not counted. */
  overCap: number;
  cap: number | null;
  expiresAt: Date | null;
  firstTime: boolean;
  plans: string[];
};
