import 'server-only';

/**
 * Who reads what of a post (DESIGN.md "Who reads what"): public-preview posts are open to
 * everyone; members' posts in full to paid users, and to signed-in free users for the 3
 * newest (the free-plan list). Everyone else gets the lead and a call to action.
 * Paid readers come from the auth state (complimentary plans until billing); staff read all.
 */

export type Viewer =
  | { kind: 'anonymous' }
  | { kind: 'member'; paid: boolean }
  /** Editors and admins. */
  | { kind: 'staff' }
  /** Staff and holders of a valid draft key, in preview mode. */
  | { kind: 'preview' };

export type PostAccess = { full: true } | { full: false; reason: 'sign-up' | 'subscribe' };

export function postAccess(
  viewer: Viewer,
  post: { id: string; isPublicPreview: boolean },
  freePlanPostIds: readonly string[],
): PostAccess {
  if (post.isPublicPreview || viewer.kind === 'preview' || viewer.kind === 'staff')
    return { full: true };
  if (viewer.kind === 'member' && (viewer.paid || freePlanPostIds.includes(post.id)))
    return { full: true };
  return { full: false, reason: viewer.kind === 'anonymous' ? 'sign-up' : 'subscribe' };
}

/**
 * Audio and movie files (and a movie's embed): paid readers, staff and preview; everyone for
 * a public-preview item. The pages are public; the file's signed URL is the gated part.
 */
export function mediaAccess(viewer: Viewer, item: { isPublicPreview: boolean }): PostAccess {
  if (item.isPublicPreview || viewer.kind === 'preview' || viewer.kind === 'staff')
    return { full: true };
  if (viewer.kind === 'member' && viewer.paid) return { full: true };
  return { full: false, reason: viewer.kind === 'anonymous' ? 'sign-up' : 'subscribe' };
}

/** Connect (the community area): every signed-in member; anonymous visitors see the lead. */
export function connectAccess(viewer: Viewer): PostAccess {
  return viewer.kind === 'anonymous' ? { full: false, reason: 'sign-up' } : { full: true };
}

const LEAD_MAX_CHARS = 300;

/**
 * The lead of a body: everything before the first <hr>, or else the first two blocks, cut to
 * whole blocks of at most ~300 characters of text. The input is sanitised HTML.
 */
export function leadOf(html: string): string {
  const divider = html.search(/<hr\b/i);
  const head = divider >= 0 ? html.slice(0, divider) : html;
  const blocks = head.match(/<(p|h2|h3|h4|blockquote|ul|ol|figure)\b[\s\S]*?<\/\1>/gi) ?? [];
  const kept: string[] = [];
  let chars = 0;
  for (const block of blocks) {
    if (block.startsWith('<figure')) continue;
    const text = block.replace(/<[^>]+>/g, '');
    if (kept.length > 0 && chars + text.length > LEAD_MAX_CHARS) break;
    kept.push(block);
    chars += text.length;
    if (divider < 0 && kept.length >= 2) break;
  }
  return kept.join('');
}
