import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import {
  htmlToText,
  indexTokens,
  normalizeForSearch,
  queryTokens,
  splitQuery,
} from '@/server/search/tokenize';
import { type EndpointDef, SEARCHABLE_KINDS } from './model';
import type { StoredData } from './values';

/**
 * What `q` searches: the normalised text of an item's published version (title first, so an
 * earlier match ranks higher) and its tokens. The same functions serve the site's search.
 */
export function searchColumns(
  def: EndpointDef,
  data: StoredData | null,
): { searchText: string; searchTokens: string[] | null } {
  if (!data) return { searchText: '', searchTokens: [] };
  const parts: string[] = [];
  for (const field of def.fields) {
    if (!SEARCHABLE_KINDS.includes(field.kind)) continue;
    const value = data[field.id];
    if (typeof value !== 'string' || value === '') continue;
    parts.push(field.kind === 'richEditor' ? htmlToText(value) : value);
  }
  const searchText = normalizeForSearch(parts.join(' '));
  const { tokens, complete } = indexTokens(searchText);
  return { searchText, searchTokens: complete ? tokens : null };
}

/** Every term of `q` must occur: the token index narrows, the substring test decides. */
export function searchCondition(q: string): { where: SQL; rank: SQL } | null {
  const terms = splitQuery(q).map(normalizeForSearch).filter(Boolean);
  if (terms.length === 0) return null;
  const conditions = terms.map((term) => {
    const tokens = queryTokens(term);
    const contains = sql`strpos(search_text, ${term}) > 0`;
    if (tokens.length === 0) return contains;
    const array = sql`ARRAY[${sql.join(
      tokens.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`;
    return sql`((search_tokens IS NULL OR search_tokens @> ${array}) AND ${contains})`;
  });
  return {
    where: sql`(${sql.join(conditions, sql` AND `)})`,
    rank: sql`strpos(search_text, ${terms[0]!})`,
  };
}
