import type { Role } from '@/lib/identity/roles';

/**
 * Who may do what in the editorial console: the one allow-list (docs/decisions/031-contributor-role.md).
 * Console pages (src/server/features/admin/content-pages.ts), the console's route handlers
 * (src/server/features/console/console-http.ts) and the navigation all ask `can`; nothing else
 * compares role names for the console. A permission not listed for a role is refused.
 */

export const CONSOLE_PERMISSIONS = [
  /** Reach /admin and /admin/content at all. */
  'console',
  /** The staff screens beside content: media, newsletter, mail, contact, analytics, partners. */
  'staff-areas',
  /** Users, offers, API keys, the audit log, import and export. */
  'admin-areas',
  /** Read, create and save any item of any endpoint. */
  'content:edit-any',
  /** Create drafts of a contributor endpoint, and read and save one's own while not published. */
  'content:edit-own',
  /** Send one's own draft to the editors for review. */
  'content:submit',
  /** Publish, schedule, unpublish, restore a version; approve or return a submission. */
  'content:publish',
  'content:delete',
  /** Select several items of a list and publish, unpublish or delete them at once. */
  'content:bulk',
] as const;
export type ConsolePermission = (typeof CONSOLE_PERMISSIONS)[number];

const EDITOR: readonly ConsolePermission[] = [
  'console',
  'staff-areas',
  'content:edit-any',
  'content:publish',
  'content:delete',
  'content:bulk',
];

const ALLOW: Readonly<Record<Role, readonly ConsolePermission[]>> = {
  member: [],
  contributor: ['console', 'content:edit-own', 'content:submit'],
  editor: EDITOR,
  admin: [...EDITOR, 'admin-areas'],
};

export function can(role: Role, permission: ConsolePermission): boolean {
  return ALLOW[role].includes(permission);
}

/** The endpoints a contributor writes in: articles. Everything else is the editors' own. */
export const CONTRIBUTOR_ENDPOINTS: readonly string[] = ['posts'];

/**
 * A submission's states, as partners' job listings have them (src/lib/jobs.ts): written,
 * waiting for an editor, sent back with a comment, approved and published.
 */
export const SUBMISSION_STATES = ['draft', 'in_review', 'returned', 'published'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

export const SUBMISSION_STATE_LABELS: Readonly<Record<SubmissionState, string>> = {
  draft: '下書き',
  in_review: '審査待ち',
  returned: '差し戻し',
  published: '公開済み',
};

/** What a console item is to the viewer: theirs (a contributor's submission) or not. */
export type ItemOwnership = { authorId: string | null; state: SubmissionState | null } | null;

/**
 * May this viewer open and save this item? Staff: any item. A contributor: a new item of a
 * contributor endpoint, or their own submission while it is not published (once an editor
 * published it, the editors own what changes).
 */
export function mayEdit(
  viewer: { id: string; role: Role },
  endpoint: string,
  item: ItemOwnership | 'new',
): boolean {
  if (can(viewer.role, 'content:edit-any')) return true;
  if (!can(viewer.role, 'content:edit-own') || !CONTRIBUTOR_ENDPOINTS.includes(endpoint))
    return false;
  if (item === 'new') return true;
  return !!item && item.authorId === viewer.id && item.state !== 'published';
}

/** May this viewer read the item in the console (its editor page, its history)? */
export function mayRead(
  viewer: { id: string; role: Role },
  endpoint: string,
  item: ItemOwnership,
): boolean {
  if (can(viewer.role, 'content:edit-any')) return true;
  return (
    can(viewer.role, 'content:edit-own') &&
    CONTRIBUTOR_ENDPOINTS.includes(endpoint) &&
    !!item &&
    item.authorId === viewer.id
  );
}
