/**
 * The staff roles of SPEC §6 (docs/decisions/003-identity.md), stored in `user.role`. Paid and
 * partner are not roles: they come from the auth state (subscriptions, partnerId). A
 * contributor (寄稿者) is not staff: they reach the console for their own drafts only
 * (src/lib/access/console-permissions.ts, docs/decisions/031-contributor-role.md).
 */
export const ROLES = ['member', 'contributor', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES: readonly Role[] = ['editor', 'admin'];
