/**
 * The profiles feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export {
  setNewsletterConsent,
  UNSUBSCRIBE_PATH,
  unsubscribeUrl,
  verifyUnsubscribeToken,
} from './newsletter-consent';
export {
  createProfiles,
  findUserByEmail,
  getProfileDetails,
  listNewsletterSubscribers,
  listUsers,
  loadIdentity,
  setPartnerId,
  setUserRole,
  updateProfile,
  type UserSummary,
} from './profiles';
export {
  cancelLiveSubscriptions,
  endGiftPeriod,
  grantGiftPeriod,
  grantComplimentary,
  listSubscriptions,
  listSubscriptionsOf,
  revokeComplimentary,
} from './subscriptions';
