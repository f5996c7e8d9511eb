import '@/styles/base';
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { type SearchParamsProps } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { SearchView } from '@/components/search/search-view';
import { currentViewer } from '@/server/features/access/current-viewer';
import { searchBusyHref, searchRateLimit } from '@/server/features/search/search-limit';
import { parseSearchRequest } from '@/server/features/search/search-request';
import { searchSite, searchSuggestions } from '@/server/features/search/site-search';
import { siteSearchSource } from '@/server/features/search/search-listers';

export async function generateMetadata({ searchParams }: SearchParamsProps): Promise<Metadata> {
  const { q } = parseSearchRequest(await searchParams);
  return sitePageMetadata({
    title: q ? `「${q}」の検索結果` : '検索',
    description: '記事、特集、音声、動画、求人をキーワードでまとめて検索できます。',
    path: '/search',
    noIndex: true,
  });
}

export default async function SearchPage({ searchParams }: SearchParamsProps) {
  const request = parseSearchRequest(await searchParams);
  if (request.q) {
    // A page cannot answer 429 itself: over the limit, the client goes to one that does.
    const retryAfter = await searchRateLimit(await headers());
    if (retryAfter !== null) redirect(searchBusyHref(request.q, retryAfter));
  }
  // Results depend on the viewer's audience; currentViewer notes it for the page cache.
  const viewer = await currentViewer();
  const source = await siteSearchSource();
  const results = await searchSite(source, request, viewer);
  // Suggestions only where they are shown: before a search and when nothing was found.
  const suggestions = results.hits.length === 0 ? await searchSuggestions(source.client) : null;
  return <SearchView results={results} suggestions={suggestions} />;
}
