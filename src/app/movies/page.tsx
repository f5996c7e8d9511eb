import '@/styles/base';
import { movieCard } from '@/components/listing/cards';
import { EmptyState, ListPage, PagedCards } from '@/components/listing/list-page';
import { pageParam, type SearchParamsProps } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listMovies } from '@/server/features/content/lists';

export const metadata = sitePageMetadata({
  title: '動画',
  description: 'アトリエや展示の現場を映像で。',
  path: '/movies',
});

export default async function MoviesPage({ searchParams }: SearchParamsProps) {
  const page = pageParam((await searchParams).page);
  const movies = await listMovies(page);
  return (
    <ListPage title="動画" lead={<p>アトリエや展示の現場を映像で。</p>}>
      <PagedCards
        list={movies}
        card={movieCard}
        basePath="/movies"
        empty={<EmptyState>動画はまだありません。</EmptyState>}
      />
    </ListPage>
  );
}
