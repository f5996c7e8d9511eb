import '@/styles/base';
import { audioCard } from '@/components/listing/cards';
import { EmptyState, ListPage, PagedCards } from '@/components/listing/list-page';
import { pageParam, type SearchParamsProps } from '@/components/listing/page-params';
import { jsonLdSite, sitePageMetadata } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { breadcrumbJsonLd } from '@/lib/json-ld/breadcrumbs';
import { listAudios } from '@/server/features/content/lists';

const LEAD = 'デザイナーや書き手をゲストに迎えて語る、耳で聴くデザインの話。';

export const metadata = sitePageMetadata({
  title: '音声',
  description: LEAD,
  path: '/audios',
});

export default async function AudiosPage({ searchParams }: SearchParamsProps) {
  const page = pageParam((await searchParams).page);
  const audios = await listAudios(page);
  return (
    <ListPage title="音声" lead={<p>{LEAD}</p>}>
      <JsonLd
        data={breadcrumbJsonLd(jsonLdSite(), [
          { name: 'ホーム', path: '/' },
          { name: '音声', path: '/audios' },
        ])}
      />
      <PagedCards
        list={audios}
        card={audioCard}
        basePath="/audios"
        empty={
          audios.totalCount > 0 ? (
            // A page past the last one (an old link): say so, and lead back to the first.
            <EmptyState action={{ href: '/audios', label: '最初のページへ' }}>
              このページに音声はありません。
            </EmptyState>
          ) : (
            <EmptyState action={{ href: '/posts', label: '記事を読む' }}>
              音声はまだありません。配信が始まるまで、記事をお楽しみください。
            </EmptyState>
          )
        }
      />
    </ListPage>
  );
}
