import { describe, expect, it } from 'vitest';
import {
  LOAD_FAILED,
  type LoadedIdentity,
  SIGNED_OUT_AUTH_STATE,
  SUBSCRIPTION_STATUSES,
  type SubscriptionRecord,
  type SubscriptionStatus,
  currentPlanName,
  deriveAuthState,
} from './auth-state';

const publicProfile = { uid: 'u1', displayName: '山田 花子', partnerId: '' };
const privateProfile = { uid: 'u1', email: 'hanako@example.jp', stripeId: null };

function subscription(
  status: SubscriptionStatus,
  id: string = status,
  cancelAtPeriodEnd = false,
): SubscriptionRecord {
  return {
    id,
    status,
    cancel_at_period_end: cancelAtPeriodEnd,
    items: [{ price: { product: { name: `plan of ${id}` } } }],
  };
}

const signedIn = (
  subscriptions: SubscriptionRecord[] | typeof LOAD_FAILED = [],
): LoadedIdentity => ({
  uid: 'u1',
  publicProfile,
  privateProfile,
  subscriptions,
});

describe('deriveAuthState (SPEC §4)', () => {
  it('clears everything for a signed-out visitor, currentSubscriptionData null', () => {
    const state = deriveAuthState({
      uid: null,
      publicProfile: null,
      privateProfile: null,
      subscriptions: [],
    });
    expect(state).toEqual({
      user: null,
      isLoading: false,
      isPaidUser: false,
      experiencedTrial: false,
      experiencedPaidPlan: false,
      currentSubscriptionData: null,
      isPartner: false,
      isCanceledAtPeriodEnd: false,
    });
  });

  it('gives a null user when either profile record is missing, or failed to load', () => {
    for (const records of [
      { publicProfile: null, privateProfile },
      { publicProfile, privateProfile: null },
      { publicProfile: LOAD_FAILED, privateProfile },
      { publicProfile, privateProfile: LOAD_FAILED },
    ] as const) {
      expect(
        deriveAuthState({ uid: 'u1', subscriptions: [subscription('active')], ...records }),
      ).toEqual(SIGNED_OUT_AUTH_STATE);
    }
  });

  it('merges the two profile records into the user', () => {
    expect(deriveAuthState(signedIn()).user).toEqual({ ...publicProfile, ...privateProfile });
  });

  it('makes the first active or trialing record the current subscription', () => {
    const state = deriveAuthState(
      signedIn([
        subscription('canceled', 'old'),
        subscription('trialing', 't1', true),
        subscription('active', 'a1'),
      ]),
    );
    expect(state.isPaidUser).toBe(true);
    expect(state.currentSubscriptionData?.id).toBe('t1');
    expect(state.isCanceledAtPeriodEnd).toBe(true);
    expect(currentPlanName(state)).toBe('plan of t1');
  });

  it('sets experiencedTrial when any subscription is canceled (literally, as SPEC says)', () => {
    expect(deriveAuthState(signedIn([subscription('canceled')])).experiencedTrial).toBe(true);
    expect(deriveAuthState(signedIn([subscription('past_due')])).experiencedTrial).toBe(false);
  });

  it('sets isPartner for a non-empty partnerId and experiencedPaidPlan for a stripeId', () => {
    const state = deriveAuthState({
      ...signedIn(),
      publicProfile: { ...publicProfile, partnerId: 'partner-1' },
      privateProfile: { ...privateProfile, stripeId: 'cus_123' },
    });
    expect(state.isPartner).toBe(true);
    expect(state.experiencedPaidPlan).toBe(true);
    expect(deriveAuthState(signedIn()).isPartner).toBe(false);
    expect(deriveAuthState(signedIn()).experiencedPaidPlan).toBe(false);
  });

  it('ignores a failed subscription load: signed in, not paid', () => {
    const state = deriveAuthState(signedIn(LOAD_FAILED));
    expect(state.user?.uid).toBe('u1');
    expect(state.isPaidUser).toBe(false);
    expect(state.currentSubscriptionData).toBeNull();
  });

  // Every sequence of up to three records over every status, each with both cancel flags.
  const sequences: SubscriptionStatus[][] = [[]];
  for (let length = 1; length <= 3; length++) {
    for (const prefix of sequences.filter((s) => s.length === length - 1)) {
      for (const status of SUBSCRIPTION_STATUSES) sequences.push([...prefix, status]);
    }
  }

  it(`holds every rule for all ${sequences.length} combinations of statuses`, () => {
    for (const statuses of sequences) {
      const records = statuses.map((status, i) => subscription(status, `s${i}`, i % 2 === 0));
      const state = deriveAuthState(signedIn(records));
      const firstLive = statuses.findIndex((s) => s === 'active' || s === 'trialing');
      expect(state.isPaidUser, statuses.join()).toBe(firstLive >= 0);
      expect(state.currentSubscriptionData?.id ?? null, statuses.join()).toBe(
        firstLive >= 0 ? `s${firstLive}` : null,
      );
      expect(state.isCanceledAtPeriodEnd, statuses.join()).toBe(
        firstLive >= 0 && firstLive % 2 === 0,
      );
      expect(state.experiencedTrial, statuses.join()).toBe(statuses.includes('canceled'));
      expect(state.isLoading).toBe(false);
    }
  });
});
