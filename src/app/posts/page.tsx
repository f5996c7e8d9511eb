import Link from 'next/link';
import { CardGrid } from '@/components/listing/content-card';
import { postCard } from '@/components/listing/cards';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { type SearchParams, pageParam, textParam } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import styles from '@/components/listing/listing.module.css';
import { listCategories, listPosts, listTags } from '@/server/content/lists';

type Props = { searchParams: SearchParams };

export async function generateMetadata({ searchParams }: Props) {
  const query = await searchParams;
  const filtered = textParam(query.category) || textParam(query.tag) || pageParam(query.page) > 1;
  return sitePageMetadata({
    title: '記事',
    description: 'デザインの現場を伝えるインタビュー、レポート、インサイトの記事一覧。',
    path: '/posts',
    // The filtered and later pages are the same list again: only the first page is indexed.
    noIndex: !!filtered,
  });
}

export default async function PostsPage({ searchParams }: Props) {
  const query = await searchParams;
  const page = pageParam(query.page);
  const category = textParam(query.category);
  const tag = textParam(query.tag);
  const [posts, categories, tags] = await Promise.all([
    listPosts({ page, category, tag }),
    listCategories(),
    listTags(),
  ]);
  const tagName = tag ? tags.find((t) => t.id === tag)?.name : undefined;
  return (
    <ListPage
      title="記事"
      lead={
        <p>
          {tagName
            ? `タグ「${tagName}」の記事 ${posts.totalCount} 件`
            : `${posts.totalCount} 件の記事`}
        </p>
      }
    >
      <nav aria-label="特集で絞り込む">
        <ul className={styles.filters}>
          <li>
            <Link href="/posts" aria-current={!category ? 'true' : undefined}>
              すべて
            </Link>
          </li>
          {categories.map((c) => (
            <li key={c.id}>
              <Link
                href={`/posts?category=${c.id}`}
                aria-current={category === c.id ? 'true' : undefined}
              >
                {c.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {posts.items.length === 0 ? (
        <EmptyState action={{ href: '/posts', label: 'すべての記事を見る' }}>
          条件に合う記事はまだありません。
        </EmptyState>
      ) : (
        <CardGrid items={posts.items.map(postCard)} headingLevel={2} firstPriority />
      )}
      <Pagination
        basePath="/posts"
        params={{ category, tag }}
        page={posts.page}
        totalPages={posts.totalPages}
      />
    </ListPage>
  );
}
