/**
 * The partners feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { canPreviewListing, type PartnerActor } from './partner-access';
export { getPartner, PARTNER_ID, partnerDeps } from './partners';
