import { z } from '@/lib/zod';

/**
 * The id an editor chooses for an item (its slug): the last segment of its public URL
 * (docs/decisions/033-slugs-and-redirects.md). Stricter than a content API id (microCMS allows
 * capitals and `_`): lowercase letters, digits and inner hyphens, so a URL reads and is typed
 * the one way. Shared by the editor (as it is typed), the console's boundary (zod) and the
 * store, which checks it again.
 */

export const SLUG_MAX_LENGTH = 50;
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;

/**
 * Ids the site's own pages take under an endpoint's URL (`/posts/bookmark`, `/jobs/about`…):
 * an item there could never be seen.
 */
const RESERVED: Readonly<Record<string, readonly string[]>> = {
  posts: ['bookmark', 'preview'],
  jobs: ['about', 'post', 'preview'],
};

export const SLUG_MESSAGES = {
  required: 'URL に使う ID を入力してください。',
  tooLong: `ID は ${SLUG_MAX_LENGTH} 文字以内で入力してください。`,
  characters:
    'ID には半角の英小文字 (a-z)・数字・ハイフン (-) だけが使えます。先頭と末尾にハイフンは使えません。',
  reserved: (slug: string) => `「${slug}」はサイトのページの URL と重なるため使えません。`,
  taken: (slug: string, label: string) =>
    `「${slug}」はほかの${label}が使っています。別の ID にしてください。`,
  redirected: (slug: string, label: string) =>
    `「${slug}」は URL を変更したほかの${label}の以前の URL で、いまの URL へ転送しています。別の ID にしてください。`,
} as const;

/** Why `value` cannot be the endpoint's slug, in Japanese; null when it can. */
export function slugProblem(endpoint: string, value: string): string | null {
  if (value === '') return SLUG_MESSAGES.required;
  if (value.length > SLUG_MAX_LENGTH) return SLUG_MESSAGES.tooLong;
  if (!SLUG.test(value)) return SLUG_MESSAGES.characters;
  if (RESERVED[endpoint]?.includes(value)) return SLUG_MESSAGES.reserved(value);
  return null;
}

/** The zod schema of a slug at a boundary of the endpoint (the console's routes). */
export function slugSchema(endpoint: string) {
  return z.string().superRefine((value, ctx) => {
    const problem = slugProblem(endpoint, value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
}
