import type { Metadata } from 'next';
import { type SearchParams } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { SearchView } from '@/components/search/search-view';
import { siteContent } from '@/server/content/site-content';
import { parseSearchRequest, searchSite, searchSuggestions } from '@/server/search/site-search';

type Props = { searchParams: SearchParams };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const { q } = parseSearchRequest(await searchParams);
  return sitePageMetadata({
    title: q ? `「${q}」の検索結果` : '検索',
    description: '記事、特集、音声、動画、求人をキーワードでまとめて検索できます。',
    path: '/search',
    noIndex: true,
  });
}

export default async function SearchPage({ searchParams }: Props) {
  const request = parseSearchRequest(await searchParams);
  const client = siteContent();
  const results = await searchSite(client, request);
  // Suggestions only where they are shown: before a search and when nothing was found.
  const suggestions = results.hits.length === 0 ? await searchSuggestions(client) : null;
  return <SearchView results={results} suggestions={suggestions} />;
}
