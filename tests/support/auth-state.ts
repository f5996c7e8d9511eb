/** What /api/me answers for a signed-in member on the free plan (the client's auth state). */
export const MEMBER_AUTH_STATE = {
  user: { uid: 'u1', displayName: '花子', partnerId: '', email: 'h@example.jp' },
  isLoading: false,
  isPaidUser: false,
  experiencedTrial: false,
  experiencedPaidPlan: false,
  currentSubscriptionData: null,
  isPartner: false,
  isCanceledAtPeriodEnd: false,
  role: 'member',
};
