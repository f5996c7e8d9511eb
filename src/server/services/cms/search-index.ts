import 'server-only';
import { createHash } from 'node:crypto';
import { type SQL, and, eq, sql } from 'drizzle-orm';
import { foldTerm } from '@/lib/japanese-text';
import { type Viewer, audioFor, connectFor, movieFor, postFor } from '@/lib/access/post-access';
import { type Db, isClosedDatabaseError } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import { SEARCH_TEXT_CHANGED, emitContentChange } from './events';
import {
  htmlToText,
  indexTokens,
  normalizeForSearch,
  queryTokens,
  splitQuery,
} from '@/server/services/cms/search/tokenize';
import { type TextAnalysis, analyseTexts, unanalysed } from '@/server/services/cms/search/readings';
import type { ReadingPair } from '@/server/services/cms/search/words';
import { CONTENT_MODEL, type EndpointDef, SEARCHABLE_KINDS, findEndpoint } from '@/lib/cms/model';
import type { StoredData } from './values';
import { singleton } from '@/lib/singleton';

/**
 * Tokens kept per item. Far above what an article reaches (a 3,000-character body has about
 * 2,500), so every item is indexed whole and a term is found wherever it occurs; text past
 * the cap in a pathological item would not be found (the query needs no OR, which keeps the
 * GIN index usable).
 */
const MAX_ITEM_TOKENS = 50_000;

/**
 * Two texts per item. The full text is what `q` searches over the API (every key that may read
 * may read everything). The open text is what the access policy shows a reader without full
 * access (docs/decisions/018-one-access-policy.md): the site search matches there for such readers,
 * so a result never answers "does the closed part contain this?" (a substring oracle).
 */
export type SearchColumns = {
  searchText: string;
  searchTokens: string[];
  openText: string;
  openTokens: string[];
  searchVersion: string;
};

const ANONYMOUS: Viewer = { kind: 'anonymous' };
const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown) => value === true;

type PolicyView = (
  viewer: Viewer,
  data: StoredData,
  freePlanPostIds: readonly string[],
) => StoredData;

/** The endpoints with an access rule, as the policy's `…For` functions cut their items. */
const POLICY_VIEWS: Readonly<Record<string, PolicyView>> = {
  posts: (viewer, data, freePlanPostIds) =>
    postFor(
      viewer,
      {
        ...data,
        id: str(data.id) ?? '',
        isPublicPreview: flag(data.isPublicPreview),
        body: str(data.body),
      },
      freePlanPostIds,
    ).item,
  audios: (viewer, data) =>
    audioFor(viewer, {
      ...data,
      isPublicPreview: flag(data.isPublicPreview),
      transcript: str(data.transcript),
    }).item,
  movies: (viewer, data) =>
    movieFor(viewer, { ...data, isPublicPreview: flag(data.isPublicPreview) }).item,
  connect: (viewer, data) => connectFor(viewer, { ...data, body: str(data.body) }).item,
};

/** What of an item (stored or API data) a viewer may read; endpoints without a rule are public. */
export function viewOf(
  def: EndpointDef,
  viewer: Viewer,
  data: StoredData,
  freePlanPostIds: readonly string[] = [],
): StoredData {
  return POLICY_VIEWS[def.endpoint]?.(viewer, data, freePlanPostIds) ?? data;
}

/**
 * The open part of an item: what the policy shows the anonymous reader. That is what every
 * reader without full access gets (a free member gets no more of an item outside the free
 * plan, which the search handles at query time).
 */
export function openData(def: EndpointDef, data: StoredData): StoredData {
  return viewOf(def, ANONYMOUS, data);
}

/**
 * The normalised text of an item's text fields and chosen options (a job's 正社員, 東京都),
 * title first (an earlier match ranks higher). Addresses (URL and e-mail fields) are not prose
 * a reader searches for, and a match in them would have no snippet to show.
 * The site search checks hits from a hosted service against the same text.
 */
export function searchableText(def: EndpointDef, data: StoredData): string {
  return normalizeForSearch(textAsWritten(def, data));
}

/** The searchable text before folding: what the analyser reads (folded kana misleads it). */
function textAsWritten(def: EndpointDef, data: StoredData): string {
  const parts: string[] = [];
  for (const field of def.fields) {
    const value = data[field.id];
    if (field.kind === 'select') {
      if (Array.isArray(value)) parts.push(...value.filter((v) => typeof v === 'string'));
      continue;
    }
    if (!SEARCHABLE_KINDS.includes(field.kind) || field.urlPrefixes || field.address) continue;
    if (typeof value !== 'string' || value === '') continue;
    parts.push(field.kind === 'richEditor' ? htmlToText(value) : value);
  }
  return parts.join(' ');
}

/**
 * Bump when the derivation of the columns changes: stale rows are reindexed.
 * 2: hiragana folded into katakana, long vowel marks folded (src/lib/japanese-text.ts).
 * 3: select options indexed, address fields (URLs, e-mail) not.
 * 4: readings of kanji appended to each text (src/server/services/cms/search/readings.ts).
 * 5: whole words and the readings of kanji words in the tokens (search/words.ts).
 */
const INDEX_DERIVATION = 5;
// The open text comes from the policy and the lead, whose rules may change elsewhere: what they
// make of these samples is part of the version, so such a change reindexes every row instead
// of trusting open text cut by the old rules.
const SAMPLES = [
  '<p>一</p><p>二</p><p>三</p>',
  '<p>一</p><hr><p>二</p>',
  '<p>一</p><p>二</p><p>三</p><hr data-members-divider=""><p>四</p>',
  `<h2>見出し</h2><p>${'あ'.repeat(200)}</p><p>${'い'.repeat(200)}</p><figure><img src="x"></figure>`,
  '<figure><img src="x"><figcaption>図</figcaption></figure><p>本文<strong>強調</strong></p><ul><li>項目</li></ul>',
  '<div><p>入れ子</p><hr class="members"></div><blockquote><p>引用</p></blockquote>',
  'プレーンテキストだけの本文',
];
const version = singleton<{ current?: string }>('search-index-version', () => ({}));

/** The version stamped on rows indexed by this code. */
export function searchIndexVersion(): string {
  if (version.current === undefined) {
    const open = CONTENT_MODEL.flatMap((def) =>
      SAMPLES.map((html) => {
        const item: StoredData = { isPublicPreview: false };
        for (const field of def.fields)
          if (SEARCHABLE_KINDS.includes(field.kind)) item[field.id] = html;
        return searchableText(def, openData(def, item));
      }),
    );
    version.current = createHash('sha256')
      .update(JSON.stringify([INDEX_DERIVATION, open]))
      .digest('base64url')
      .slice(0, 16);
  }
  return version.current;
}

/**
 * A text with its readings after it (folded like the text: ウルシ), so that a kana term finds the
 * kanji it reads. A term holds no whitespace, so it never matches across the space between them;
 * a term with kanji cannot match in the readings, which have none. Snippets quote the items'
 * own text, never this column.
 */
const withReading = (text: string, reading: string) =>
  reading === '' ? text : `${text} ${normalizeForSearch(reading)}`;

/**
 * Besides its n-grams, an item's token array holds its whole words and how its kanji read, each
 * marked so that no query token (a run of letters, tokenize.ts) can equal it: `w:紙` says 紙 is a
 * word of the text (the site search ranks such matches first), `r:紙 カミ` that 紙 there reads カミ
 * (the page marks 紙 for かみ). Both come from the same text as the column's, so the open tokens
 * tell no more than the open text.
 */
const WORD_MARK = 'w:';
const READING_MARK = 'r:';

function tokensOf(text: string, analysis: TextAnalysis): string[] {
  const marked = [
    ...analysis.words.map((word) => WORD_MARK + word),
    ...analysis.pairs.map(([surface, reading]) => `${READING_MARK}${surface} ${reading}`),
  ].slice(0, MAX_ITEM_TOKENS);
  return [...new Set([...indexTokens(text, MAX_ITEM_TOKENS).tokens, ...marked])].sort();
}

/**
 * What `q` and the site search match: the columns of an item's published version. The open
 * text's readings and words come from the open text alone, so they reveal no more than it does.
 */
export async function searchColumns(
  def: EndpointDef,
  data: StoredData | null,
  options: { readings?: boolean } = {},
): Promise<SearchColumns> {
  const searchVersion = searchIndexVersion();
  if (!data) {
    return { searchText: '', searchTokens: [], openText: '', openTokens: [], searchVersion };
  }
  const fullWritten = textAsWritten(def, data);
  const openWritten = textAsWritten(def, openData(def, data));
  const fullText = normalizeForSearch(fullWritten);
  const open = normalizeForSearch(openWritten);
  // A public item's open text is its full text: it is not analysed twice.
  const written = open === fullText ? [fullWritten] : [fullWritten, openWritten];
  const [full, openAnalysis] =
    options.readings === false ? written.map(unanalysed) : await analyseTexts(written);
  const searchText = withReading(fullText, full!.reading);
  const searchTokens = tokensOf(searchText, full!);
  if (!openAnalysis) {
    return {
      searchText,
      searchTokens,
      openText: searchText,
      openTokens: searchTokens,
      searchVersion,
    };
  }
  const openText = withReading(open, openAnalysis.reading);
  return {
    searchText,
    searchTokens,
    openText,
    openTokens: tokensOf(openText, openAnalysis),
    searchVersion,
  };
}

const HAN = /\p{sc=Han}/u;

/**
 * The stamp of a row written without the readings of its kanji, which follow after the answer
 * (indexReadingsLater). Not the current version: the open text does not match until they are
 * in (inScope), and a reindex (this process's, or the next start's) completes a row left so.
 */
const readingsPending = () => `${searchIndexVersion()}:readings-pending`;

/**
 * searchColumns for a write that answers at once: a text with kanji is indexed without their
 * readings, which the analyser's child (seconds to start when idle, readings.ts) adds after the
 * answer. Call indexReadingsLater once the row is written.
 */
export async function searchColumnsNow(
  def: EndpointDef,
  data: StoredData | null,
): Promise<SearchColumns> {
  if (!data || !HAN.test(textAsWritten(def, data))) return searchColumns(def, data);
  return {
    ...(await searchColumns(def, data, { readings: false })),
    searchVersion: readingsPending(),
  };
}

/** The readings still to index, one item after another. */
const readingsQueue = singleton<{ tail: Promise<unknown> }>('search-readings-queue', () => ({
  tail: Promise.resolve(),
}));

/**
 * Adds the readings to an item written with searchColumnsNow, in the background: the row as it
 * is then (a newer write is indexed by its own writer); nothing when it needs none.
 */
export function indexReadingsLater(db: Db, def: EndpointDef, id: string): void {
  readingsQueue.tail = readingsQueue.tail
    .then(async () => {
      const where = and(
        eq(cmsContents.endpoint, def.endpoint),
        eq(cmsContents.id, id),
        eq(cmsContents.searchVersion, readingsPending()),
      );
      const [row] = await db
        .select({ data: cmsContents.data, updatedAt: cmsContents.updatedAt })
        .from(cmsContents)
        .where(where);
      if (!row) return;
      const updated = await db
        .update(cmsContents)
        .set(await searchColumns(def, row.data))
        .where(and(where, eq(cmsContents.updatedAt, row.updatedAt)))
        .returning({ id: cmsContents.id });
      // Answers cached before the readings were in must not outlive them.
      if (updated.length > 0) emitContentChange(SEARCH_TEXT_CHANGED);
    })
    .catch((error: unknown) => {
      // Closed (shutdown, a finished test): the next start's reindex completes the row.
      if (!isClosedDatabaseError(error)) console.error('[search] readings not indexed:', error);
    });
}

/** When the readings asked for so far are indexed (tests, scripts). */
export async function readingsIndexed(): Promise<void> {
  for (let tail = readingsQueue.tail; ; tail = readingsQueue.tail) {
    await tail;
    if (tail === readingsQueue.tail) return;
  }
}

/**
 * Which text a search may match: `full` for a reader of everything (and the API); `open` for a
 * reader without full access, who also reads the items of `fullIds` whole (the free plan).
 */
export type SearchScope = { kind: 'full' } | { kind: 'open'; fullIds?: readonly string[] };

/** The folded terms of `q` (every one must occur), as the highlighting reads them too. */
export function searchTerms(q: string): string[] {
  return splitQuery(q).map(foldTerm).filter(Boolean);
}

/** Whether a normalised text contains every term of `q`: the same test as the index's. */
export function textMatches(text: string, q: string): boolean {
  const terms = searchTerms(q);
  return terms.length > 0 && terms.every((term) => text.includes(term));
}

/**
 * Every term must occur: the token index narrows, the substring test decides. A term that is
 * itself one index token (建築, 光, `bau`) needs no substring test: the item has that token
 * exactly when its text contains the term (tokenize.ts), so a common word is counted from the
 * index without reading every matching text.
 */
function matchAll(terms: string[], text: SQL, tokens: SQL): SQL {
  const conditions = terms.map((term) => {
    const wanted = queryTokens(term);
    const contains = sql`strpos(${text}, ${term}) > 0`;
    if (wanted.length === 0) return contains;
    const array = sql`ARRAY[${sql.join(
      wanted.map((t) => sql`${t}`),
      sql`, `,
    )}]::text[]`;
    const indexed = sql`${tokens} @> ${array}`;
    return wanted.length === 1 && wanted[0] === term ? indexed : sql`(${indexed} AND ${contains})`;
  });
  return sql`(${sql.join(conditions, sql` AND `)})`;
}

const idList = (ids: readonly string[]) =>
  sql`id IN (${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/**
 * A condition on the columns a scope matches: the full text and tokens, or the open ones of rows
 * indexed by these rules and the full ones of the items the reader reads whole.
 */
function inScope(scope: SearchScope, on: (text: SQL, tokens: SQL) => SQL): SQL {
  const full = on(sql`search_text`, sql`search_tokens`);
  if (scope.kind === 'full') return full;
  // Open text indexed by other rules (an older lead) is never trusted: such a row matches
  // only once reindexed.
  const open = sql`(search_version = ${searchIndexVersion()} AND ${on(sql`open_text`, sql`open_tokens`)})`;
  const fullIds = scope.fullIds ?? [];
  if (fullIds.length === 0) return open;
  return sql`(${open} OR (${idList(fullIds)} AND ${full}))`;
}

/** The condition of `q`; null when it holds nothing to look for. */
export function searchCondition(q: string, scope: SearchScope = { kind: 'full' }): SQL | null {
  const terms = searchTerms(q);
  return terms.length === 0
    ? null
    : inScope(scope, (text, tokens) => matchAll(terms, text, tokens));
}

/**
 * Where every term of `q` is a whole word of the text the scope matches (紙 or 神 for かみ, by its
 * written form or its reading), not only part of one (温かみ): the site search lists these
 * matches first. The test in three forms, for the plans the store needs: `lookup` through the
 * token index (to count them, or to read a few), `each` on every row read (to walk many in date
 * order, as the matches alone are walked), and `others`, the rest of the matches. Measured on
 * 10,000 posts: こうげい's 3,426 whole-word matches took 168 ms a page through the index (the
 * planner, misled by the bigrams' correlation, read them all) and 34 ms walked, against 30 ms for
 * the matches alone.
 */
export function wholeWordConditions(
  q: string,
  scope: SearchScope,
): { lookup: SQL; each: SQL; others: SQL } | null {
  const words = searchTerms(q).map((term) => WORD_MARK + term);
  if (words.length === 0) return null;
  const array = sql`ARRAY[${sql.join(
    words.map((word) => sql`${word}`),
    sql`, `,
  )}]::text[]`;
  return {
    lookup: inScope(scope, (_text, tokens) => sql`${tokens} @> ${array}`),
    // No index answers array_position, and the planner takes IS NOT NULL of a function to hold
    // for nearly every row: the plan stays the matches' own.
    each: inScope(
      scope,
      (_text, tokens) =>
        sql`(${sql.join(
          words.map((word) => sql`array_position(${tokens}, ${word}) IS NOT NULL`),
          sql` AND `,
        )})`,
    ),
    // The function behind @> (no index either), which the planner takes to hold for a third of
    // the rows: the rest are walked while they are many, and read at once when they are few.
    others: sql`NOT ${inScope(scope, (_text, tokens) => sql`arraycontains(${tokens}, ${array})`)}`,
  };
}

/**
 * How the kanji of found items read, as indexed from the text the scope gives the reader (never
 * from a part they may not read), by id: what a kana term found is marked on the page from these,
 * without the analyser.
 */
export async function readingPairsOf(
  db: Db,
  endpoint: string,
  ids: readonly string[],
  scope: SearchScope,
): Promise<Map<string, ReadingPair[]>> {
  if (ids.length === 0) return new Map();
  const fullIds = scope.kind === 'open' ? (scope.fullIds ?? []) : [];
  const tokens =
    scope.kind === 'full'
      ? sql`search_tokens`
      : fullIds.length > 0
        ? sql`(CASE WHEN ${idList(fullIds)} THEN search_tokens ELSE open_tokens END)`
        : sql`open_tokens`;
  const rows = await db
    .select({
      id: cmsContents.id,
      pairs: sql<
        string[]
      >`ARRAY(SELECT t FROM unnest(${tokens}) AS t WHERE starts_with(t, ${READING_MARK}))`,
    })
    .from(cmsContents)
    .where(and(eq(cmsContents.endpoint, endpoint), idList(ids)));
  return new Map(
    rows.map((row) => [
      row.id,
      row.pairs.flatMap((token): ReadingPair[] => {
        const [surface = '', reading = ''] = token.slice(READING_MARK.length).split(' ');
        return surface && reading ? [[surface, reading]] : [];
      }),
    ]),
  );
}

/** A stable key of a scope, for caches of answers. */
export function scopeKey(scope: SearchScope): string {
  return scope.kind === 'full' ? 'full' : `open:${[...(scope.fullIds ?? [])].sort().join(',')}`;
}

const REINDEX_BATCH = 100;

/**
 * Recomputes the columns of every row indexed by other rules (rows from before the open text,
 * or from before a change of the lead), in batches. A row written meanwhile is left as its
 * writer indexed it. Returns how many rows were reindexed.
 */
export async function reindexStaleRows(db: Db): Promise<number> {
  const version = searchIndexVersion();
  let done = 0;
  // Rows not reindexed in this run (an unknown endpoint, a row changing under us) are left
  // for the next run rather than retried in a loop.
  const skipped = new Set<string>();
  for (;;) {
    const rows = await db
      .select({
        endpoint: cmsContents.endpoint,
        id: cmsContents.id,
        data: cmsContents.data,
        updatedAt: cmsContents.updatedAt,
      })
      .from(cmsContents)
      .where(sql`search_version <> ${version}`)
      .orderBy(cmsContents.endpoint, cmsContents.id)
      .limit(REINDEX_BATCH + skipped.size);
    const todo = rows.filter((row) => !skipped.has(`${row.endpoint}/${row.id}`));
    if (todo.length === 0) return done;
    const doneBefore = done;
    for (const row of todo) {
      const def = findEndpoint(row.endpoint);
      const updated = def
        ? await db
            .update(cmsContents)
            .set(await searchColumns(def, row.data))
            .where(
              and(
                eq(cmsContents.endpoint, row.endpoint),
                eq(cmsContents.id, row.id),
                eq(cmsContents.updatedAt, row.updatedAt),
                sql`search_version <> ${version}`,
              ),
            )
            .returning({ id: cmsContents.id })
        : [];
      if (updated.length > 0) done++;
      else skipped.add(`${row.endpoint}/${row.id}`);
    }
    // What searches answer changed (readings take the analyser a while): answers cached
    // meanwhile must not outlive the batch. Once a batch, not once a row.
    if (done > doneBefore) emitContentChange(SEARCH_TEXT_CHANGED);
  }
}

const reindexing = singleton('search-reindexing', () => new WeakMap<Db, Promise<number>>());

/**
 * Starts reindexing stale rows once per process and database, in the background: until a row is
 * done its open text is simply not matched (searchCondition), so nobody waits for it.
 */
export function reindexInBackground(db: Db): void {
  if (reindexing.has(db)) return;
  const run = reindexStaleRows(db).catch((error: unknown) => {
    if (!isClosedDatabaseError(error)) console.error('[search] reindexing failed:', error);
    reindexing.delete(db); // tried again on a later search
    return 0;
  });
  reindexing.set(db, run);
}

/** The background reindex of this database, if one was started (tests wait for it). */
export function reindexDone(db: Db): Promise<number> | undefined {
  return reindexing.get(db);
}
