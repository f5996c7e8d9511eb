/**
 * What the comments' server and their pages share (docs/decisions/061-comments.md): the limits,
 * the endpoints that take comments, and the one way a comment's text becomes text and links.
 */

export const COMMENT_MAX = 2000;
/** A comment may be edited by its writer for this long after it was written. */
export const COMMENT_EDIT_MS = 10 * 60_000;
export const COMMENT_ENDPOINTS = ['posts', 'audios', 'movies'] as const;
export type CommentEndpoint = (typeof COMMENT_ENDPOINTS)[number];

export const commentItemPath = (endpoint: CommentEndpoint, contentId: string) =>
  `/${endpoint}/${encodeURIComponent(contentId)}`;

/** The comments' anchor on an item's page. */
export const COMMENTS_ANCHOR = 'comments';

export type CommentPart = { kind: 'text'; text: string } | { kind: 'link'; href: string };

// An http(s) address up to the first space, quote or angle bracket; nothing else becomes a link.
const LINK = /https?:\/\/[^\s<>"'`]+/gi;
// Punctuation that ends a sentence rather than the address.
const TRAILING = /[.,;:!?)\]}、。，．！？）」』]+$/u;

/** An address the comment may link to: http or https only, as the URL parser reads it. */
function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A comment's plain text as text and links, for the renderer to escape: only http(s) addresses
 * become links (a `javascript:` text stays text), and the text is never read as markup.
 */
export function commentParts(body: string): CommentPart[] {
  const parts: CommentPart[] = [];
  let at = 0;
  const text = (value: string) => {
    if (!value) return;
    const last = parts.at(-1);
    if (last?.kind === 'text') last.text += value;
    else parts.push({ kind: 'text', text: value });
  };
  for (const match of body.matchAll(LINK)) {
    const raw = match[0];
    const trail = TRAILING.exec(raw)?.[0] ?? '';
    const address = raw.slice(0, raw.length - trail.length);
    text(body.slice(at, match.index));
    const href = safeHref(address);
    if (href) parts.push({ kind: 'link', href });
    else text(address);
    text(trail);
    at = match.index + raw.length;
  }
  text(body.slice(at));
  return parts;
}
