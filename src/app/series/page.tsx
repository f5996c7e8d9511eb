import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { EmptyState, ListPage, Section } from '@/components/listing/list-page';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { listPosts, listSeries } from '@/server/content/lists';

// Content is read per request (the build never opens the database).
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: '連載',
  description: '書き手とともに続いていくシリーズ。各連載の記事を順に読めます。',
  path: '/series',
});

export default async function SeriesPage() {
  const series = await listSeries();
  const withPosts = await Promise.all(
    series.map(async (s) => ({
      series: s,
      posts: await listPosts({ series: s.id, orders: 'seriesOrder', size: 50 }),
    })),
  );
  return (
    <ListPage
      title="連載"
      lead={<p>書き手とともに続いていくシリーズ。第 1 回から順に並べています。</p>}
    >
      {withPosts.length === 0 ? <EmptyState>連載はまだありません。</EmptyState> : null}
      {withPosts.map(({ series: s, posts }) => (
        <Section key={s.id} id={`series-${s.id}`} title={s.title}>
          {s.description ? <p>{s.description}</p> : null}
          {posts.items.length === 0 ? (
            <EmptyState>この連載の記事は準備中です。</EmptyState>
          ) : (
            <CardGrid
              items={posts.items.map((p) => ({
                ...postCard(p),
                kicker: p.seriesOrder ? `第${p.seriesOrder}回` : postCard(p).kicker,
              }))}
            />
          )}
        </Section>
      ))}
    </ListPage>
  );
}
