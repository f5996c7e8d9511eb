import { AccessBadge } from '@/components/content/access-badge';
import { Link } from '@/components/layout/site-link';
import { ResponsiveImage } from '@/components/content/responsive-image';
import { Pagination } from '@/components/listing/list-page';
import { formatDateJa, isoDateJa } from '@/lib/format';
import {
  SEARCH_FILTERS,
  SEARCH_PAGE_SIZE,
  SEARCH_TYPE_LABELS,
  type SearchFilter,
  searchHref,
} from '@/server/features/search/search-request';
import type {
  SearchHit,
  SearchResults,
  SearchSuggestions,
} from '@/server/features/search/site-search';
import { Highlighted } from './highlighted';
import { SearchForm } from './search-form';
import { SearchShell } from './search-shell.client';
import styles from './search.module.css';

/** The whole /search page: the box, the type filter with counts, results, paging, suggestions. */
export function SearchView({
  results,
  suggestions,
}: {
  results: SearchResults;
  suggestions: SearchSuggestions | null;
}) {
  const { q, type } = results;
  return (
    <div className={styles.searchPage}>
      <header className={styles.header}>
        <h1 className={styles.title}>
          {q ? (
            <>
              「{q}」<wbr />
              の検索結果
            </>
          ) : (
            '検索'
          )}
        </h1>
      </header>
      <SearchShell form={<SearchForm q={q} type={type} />}>
        {q ? (
          <Results results={results} suggestions={suggestions} />
        ) : (
          <Intro suggestions={suggestions} />
        )}
      </SearchShell>
    </div>
  );
}

function Results({
  results,
  suggestions,
}: {
  results: SearchResults;
  suggestions: SearchSuggestions | null;
}) {
  const { q, type, counts, atLeast, page, totalPages, hits } = results;
  const total = counts[type];
  const from = (page - 1) * SEARCH_PAGE_SIZE + 1;
  const label = type === 'all' ? '' : `${SEARCH_TYPE_LABELS[type]} `;
  const range = `${from}〜${from + hits.length - 1} 件目`;
  return (
    <div className={styles.layout}>
      <div className={styles.facets}>
        <TypeFilter q={q} type={type} counts={counts} atLeast={atLeast} />
      </div>
      <div className={styles.main}>
        <p className={hits.length > 0 ? styles.summary : styles.notFound} role="status">
          {hits.length > 0
            ? atLeast.includes(type)
              ? `${label}${range}（${total} 件以上）`
              : `${label}${total} 件中 ${range}`
            : `「${q}」に一致する${type === 'all' ? 'コンテンツ' : SEARCH_TYPE_LABELS[type]}は見つかりませんでした。`}
        </p>
        {hits.length > 0 ? (
          <>
            <ol className={styles.hits}>
              {hits.map((hit) => (
                <li key={`${hit.type}/${hit.id}`}>
                  <Hit hit={hit} />
                </li>
              ))}
            </ol>
            <Pagination
              basePath="/search"
              params={{ q, type: type === 'all' ? undefined : type }}
              page={page}
              totalPages={totalPages}
            />
          </>
        ) : (
          <NoResults results={results} suggestions={suggestions} />
        )}
      </div>
    </div>
  );
}

function TypeFilter({
  q,
  type,
  counts,
  atLeast,
}: {
  q: string;
  type: SearchFilter;
  counts: Record<SearchFilter, number>;
  /** Counts that are lower bounds (a hosted content service with many matches). */
  atLeast: readonly SearchFilter[];
}) {
  return (
    <nav aria-label="種類で絞り込む" className={styles.typeNav}>
      {/* The nav's name says it to screen readers; this shows it beside the column. */}
      <p className={styles.facetTitle} aria-hidden="true">
        種類で絞り込む
      </p>
      <ul className={styles.types}>
        {SEARCH_FILTERS.map((filter) => (
          <li key={filter}>
            <Link
              href={searchHref({ q, type: filter })}
              aria-current={filter === type ? 'page' : undefined}
              className={styles.typeLink}
            >
              {SEARCH_TYPE_LABELS[filter]}{' '}
              <span className={styles.count}>
                {counts[filter]}
                {atLeast.includes(filter) ? '件以上' : '件'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Hit({ hit }: { hit: SearchHit }) {
  return (
    <article className={hit.cover ? styles.hit : `${styles.hit} ${styles.hitNoCover}`}>
      <h2 className={styles.hitTitle}>
        <Link href={hit.href}>
          <Highlighted segments={hit.title} />
        </Link>
      </h2>
      <p className={styles.hitMeta}>
        <span className={styles.hitType}>{SEARCH_TYPE_LABELS[hit.type]}</span>
        {hit.access ? <AccessBadge level={hit.access} /> : null}
        <time dateTime={isoDateJa(hit.date)}>{formatDateJa(hit.date)}</time>
      </p>
      {hit.snippet.length > 0 ? (
        <p className={styles.snippet}>
          <Highlighted segments={hit.snippet} />
        </p>
      ) : null}
      {/* Decoration beside the text: the title's link is the way in, so no second link. */}
      <div className={styles.hitThumb} aria-hidden="true">
        {hit.cover ? (
          <ResponsiveImage src={hit.cover.url} alt="" fill sizes="(min-width: 60rem) 12rem, 6rem" />
        ) : null}
      </div>
    </article>
  );
}

function NoResults({
  results,
  suggestions,
}: {
  results: SearchResults;
  suggestions: SearchSuggestions | null;
}) {
  const { q, type, counts } = results;
  return (
    <div className={styles.noResults}>
      {type !== 'all' && counts.all > 0 ? (
        <p>
          ほかの種類では {counts.all} 件見つかりました。
          <Link href={searchHref({ q })}>すべての種類の結果を見る</Link>
        </p>
      ) : null}
      <h2 className={styles.emptyTitle}>検索のヒント</h2>
      <ul className={styles.tips}>
        <li>誤字や脱字がないか、漢字・ひらがな・カタカナの表記を確かめてください。</li>
        <li>
          漢字の言葉は、ひらがなの読みでも探せます（例: うるし →
          漆）。人名など読みの分かれる言葉は漢字でお試しください。
        </li>
        <li>言葉の数を減らすか、より一般的な言葉で検索してみてください。</li>
        <li>特集やタグから記事を探すこともできます。</li>
      </ul>
      {suggestions ? <Suggestions suggestions={suggestions} level={3} /> : null}
    </div>
  );
}

function Intro({ suggestions }: { suggestions: SearchSuggestions | null }) {
  return (
    <div className={styles.intro}>
      <p>
        記事、特集、音声、動画、求人をまとめて検索できます。作品名や人の名前、素材や技法など、気になる言葉を入力してください。
      </p>
      {suggestions ? <Suggestions suggestions={suggestions} level={2} /> : null}
    </div>
  );
}

function Suggestions({ suggestions, level }: { suggestions: SearchSuggestions; level: 2 | 3 }) {
  const Heading = `h${level}` as const;
  const groups = [
    { id: 'search-suggest-categories', title: '特集から探す', items: suggestions.categories },
    { id: 'search-suggest-tags', title: 'タグから探す', items: suggestions.tags },
  ].filter((group) => group.items.length > 0);
  return groups.map((group) => (
    <section key={group.id} aria-labelledby={group.id} className={styles.suggestions}>
      <Heading id={group.id} className={styles.suggestionsTitle}>
        {group.title}
      </Heading>
      <ul className={styles.chips}>
        {group.items.map((item) => (
          <li key={item.id}>
            <Link href={item.href}>{item.name}</Link>
          </li>
        ))}
      </ul>
    </section>
  ));
}
