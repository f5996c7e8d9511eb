/**
 * The letter parameter of a newsletter's links to its post (see opens.ts): pure, so the front
 * server's page cache can check for it without the database.
 */

export const LETTER_PARAM = 'nl';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POST_PATH = /^\/posts\/([A-Za-z0-9_-]{1,50})$/;

/** The post's address in a letter, carrying the letter's id. */
export function letterPostUrl(siteUrl: string, contentId: string, letterId: string): string {
  const url = new URL(`/posts/${encodeURIComponent(contentId)}`, siteUrl);
  url.searchParams.set(LETTER_PARAM, letterId);
  return url.toString();
}

export type LetterVisit = {
  /** The letter, when the parameter is one (a malformed value is dropped, not counted). */
  letterId: string | null;
  /** The post it links to, when the path is a post's. */
  contentId: string | null;
  /** The same request target without the parameter. */
  cleanUrl: string;
};

/** Whether a request target carries the letter parameter. */
export function hasLetterParam(target: string): boolean {
  const q = target.indexOf('?');
  return q >= 0 && new URLSearchParams(target.slice(q + 1).split('#', 1)[0]).has(LETTER_PARAM);
}

/** A request target carrying the letter parameter, or null (most requests). */
export function letterVisit(target: string): LetterVisit | null {
  if (!hasLetterParam(target)) return null;
  const q = target.indexOf('?');
  const params = new URLSearchParams(target.slice(q + 1).split('#', 1)[0]);
  const value = params.get(LETTER_PARAM) ?? '';
  params.delete(LETTER_PARAM);
  const path = target.slice(0, q);
  const rest = params.toString();
  return {
    letterId: UUID.test(value) ? value.toLowerCase() : null,
    contentId: POST_PATH.exec(path)?.[1] ?? null,
    cleanUrl: rest ? `${path}?${rest}` : path,
  };
}
