/**
 * The billing feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { cancelProviderSubscriptions } from './account-closure';
export { choosePlan, listPlans, syncCatalogue, unknownPlanMessage } from './catalogue';
export { checkoutIntentPath } from './checkout-intent';
export { customerIdOf } from './customers';
export { createOffer, deactivateOffer, offerInput } from './offer-console';
export { duplicateClaimKey } from './one-plan';
export { billingProvider, usesSandbox } from './provider';
export { hasBillingNotice } from './reader-notices';
export { serveBillingSandbox } from './sandbox-serve';
export { ensureSandboxWebhook } from './sandbox-setup';
export { startRefusal } from './start-check';
export { sandboxDeliveries } from './webhook';
