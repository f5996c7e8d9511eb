/**
 * The staff roles of SPEC §6 (docs/decisions/003-identity.md), stored in `user.role`. Paid and
 * partner are not roles: they come from the auth state (subscriptions, partnerId).
 */
export const ROLES = ['member', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES: readonly Role[] = ['editor', 'admin'];
