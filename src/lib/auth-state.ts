/**
 * The auth state of SPEC §3–4, derived by one pure function from what was loaded for the
 * visitor: the public and private profile records and the subscriptions under the public one.
 * Server components and the client provider both use it, so the rules live only here.
 */

/** The payment provider's subscription statuses (Stripe's). */
export const SUBSCRIPTION_STATUSES = [
  'active',
  'trialing',
  'canceled',
  'past_due',
  'unpaid',
  'incomplete',
  'incomplete_expired',
  'paused',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export type SubscriptionRecord = {
  id: string;
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  /** SPEC §3: the plan name is items[0].price.product.name. */
  items: { price: { id?: string; product: { id?: string; name: string } } }[];
  current_period_end?: string | null;
  trial_end?: string | null;
};

export type PublicProfile = {
  uid: string;
  displayName: string;
  avatarUrl?: string | null;
  /** Empty string: not a partner (SPEC §3). */
  partnerId: string;
};

export type PrivateProfile = {
  uid: string;
  email: string;
  /** The payment customer id, set once a payment customer exists. */
  stripeId?: string | null;
};

export type AuthUser = PublicProfile & PrivateProfile;

export type AuthState = {
  user: AuthUser | null;
  isLoading: boolean;
  isPaidUser: boolean;
  experiencedTrial: boolean;
  experiencedPaidPlan: boolean;
  currentSubscriptionData: SubscriptionRecord | null;
  isPartner: boolean;
  isCanceledAtPeriodEnd: boolean;
};

/** What the page wrapper starts with: loading, nobody known yet. */
export const LOADING_AUTH_STATE: AuthState = {
  user: null,
  isLoading: true,
  isPaidUser: false,
  experiencedTrial: false,
  experiencedPaidPlan: false,
  currentSubscriptionData: null,
  isPartner: false,
  isCanceledAtPeriodEnd: false,
};

/** SPEC §4: on sign-out everything is cleared and currentSubscriptionData is null. */
export const SIGNED_OUT_AUTH_STATE: AuthState = { ...LOADING_AUTH_STATE, isLoading: false };

/** A load that failed: SPEC §8 ignores the error silently, so it counts as nothing loaded. */
export const LOAD_FAILED = Symbol('load failed');

export type LoadedIdentity = {
  /** The signed-in user's id, or null when signed out. */
  uid: string | null;
  publicProfile: PublicProfile | null | typeof LOAD_FAILED;
  privateProfile: PrivateProfile | null | typeof LOAD_FAILED;
  /** Every subscription under the public profile, in the provider's order (newest first). */
  subscriptions: readonly SubscriptionRecord[] | typeof LOAD_FAILED;
};

const isLive = (s: SubscriptionRecord) => s.status === 'active' || s.status === 'trialing';

export function deriveAuthState(loaded: LoadedIdentity): AuthState {
  if (loaded.uid === null) return SIGNED_OUT_AUTH_STATE;
  const { publicProfile, privateProfile } = loaded;
  // Either record missing (or failed to load): the user is null.
  if (
    !publicProfile ||
    publicProfile === LOAD_FAILED ||
    !privateProfile ||
    privateProfile === LOAD_FAILED
  ) {
    return SIGNED_OUT_AUTH_STATE;
  }
  const subscriptions = loaded.subscriptions === LOAD_FAILED ? [] : loaded.subscriptions;
  const current = subscriptions.find(isLive) ?? null;
  return {
    user: { ...publicProfile, ...privateProfile },
    isLoading: false,
    isPaidUser: current !== null,
    experiencedTrial: subscriptions.some((s) => s.status === 'canceled'),
    experiencedPaidPlan: !!privateProfile.stripeId,
    currentSubscriptionData: current,
    isPartner: publicProfile.partnerId !== '',
    isCanceledAtPeriodEnd: current?.cancel_at_period_end ?? false,
  };
}

/** The plan name of the current subscription (items[0].price.product.name), if any. */
export function currentPlanName(state: AuthState): string | null {
  return state.currentSubscriptionData?.items[0]?.price.product.name ?? null;
}
