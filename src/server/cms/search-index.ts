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
 * Tokens kept per item. Far above what an article reaches (a 3,000-character body has about
 * 2,500), so every item is indexed whole and a term is found wherever it occurs; text past
 * the cap in a pathological item would not be found (the query needs no OR, which keeps the
 * GIN index usable).
 */
const MAX_ITEM_TOKENS = 50_000;

/**
 * What `q` searches: the normalised text of an item's published version (title first, so an
 * earlier match ranks higher) and its tokens. The same functions serve the site's search.
 */
export function searchColumns(
  def: EndpointDef,
  data: StoredData | null,
): { searchText: string; searchTokens: string[] } {
  if (!data) return { searchText: '', searchTokens: [] };
  const parts: string[] = [];
  for (const field of def.fields) {
    if (!SEARCHABLE_KINDS.includes(field.kind)) continue;
    const value = data[field.id];
    if (typeof value !== 'string' || value === '') continue;
    parts.push(field.kind === 'richEditor' ? htmlToText(value) : value);
  }
  const searchText = normalizeForSearch(parts.join(' '));
  return { searchText, searchTokens: indexTokens(searchText, MAX_ITEM_TOKENS).tokens };
}

/**
 * Every term of `q` must occur: the token index narrows, the substring test decides. A term
 * that is itself one index token (建築, 光, `bau`) needs no substring test: the item has that
 * token exactly when its text contains the term (tokenize.ts), so a common word is counted
 * from the index without reading every matching text.
 */
export function searchCondition(q: string): SQL | null {
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
    const indexed = sql`search_tokens @> ${array}`;
    return tokens.length === 1 && tokens[0] === term ? indexed : sql`(${indexed} AND ${contains})`;
  });
  return sql`(${sql.join(conditions, sql` AND `)})`;
}
