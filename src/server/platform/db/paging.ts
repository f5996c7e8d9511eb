import 'server-only';

/**
 * What the staff lists' queries share: a search typed into a LIKE pattern, and the page a
 * request asked for, kept within the pages there are.
 */

/** `%`, `_` and `\` typed in the search are literal characters, not patterns. */
export function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The page count of `total` rows (at least 1) and the asked-for page within it: a page past
 * the end shows the last one rather than an empty list, and one before the first the first.
 */
export function pageWithin(
  total: number,
  asked: number,
  pageSize: number,
): { page: number; pageCount: number; offset: number } {
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, asked), pageCount);
  return { page, pageCount, offset: (page - 1) * pageSize };
}
