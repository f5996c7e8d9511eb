import '@/styles/base';
import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { EmptyState, ListPage, Section } from '@/components/listing/list-page';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { seriesPath } from '@/lib/authors/works';
import { listSeries, listSeriesEpisodes } from '@/server/features/content/lists';

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
      posts: await listSeriesEpisodes(s.id),
    })),
  );
  return (
    <ListPage
      title="連載"
      lead={<p>書き手とともに続いていくシリーズ。第 1 回から順に並べています。</p>}
    >
      {withPosts.length === 0 ? <EmptyState>連載はまだありません。</EmptyState> : null}
      {withPosts.map(({ series: s, posts }) => (
        <Section
          key={s.id}
          id={`series-${s.id}`}
          title={s.title}
          more={{ href: seriesPath(s.id), label: '連載のページへ' }}
        >
          {s.description ? <p>{s.description}</p> : null}
          {posts.length === 0 ? (
            <EmptyState>この連載の記事は準備中です。</EmptyState>
          ) : (
            <CardGrid items={posts.map((p, i) => ({ ...postCard(p), kicker: `第${i + 1}回` }))} />
          )}
        </Section>
      ))}
    </ListPage>
  );
}
