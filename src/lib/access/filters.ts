/**
 * The content service's filters that carry an access rule, named once (microCMS filter syntax).
 * Lists, the free-plan list, the feed and search use these, never a literal of their own.
 */

/** Posts open to everyone: their bodies may appear anywhere (feed, snippets). */
export const OPEN_POSTS_FILTER = 'isPublicPreview[equals]true';
/** Members' posts: the free-plan list is the newest of these (SPEC §7). */
export const MEMBERS_POSTS_FILTER = 'isPublicPreview[not_equals]true';
