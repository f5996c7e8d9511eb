import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { postCard } from '@/components/listing/cards';
import { EmptyState, ListPage, PagedCards } from '@/components/listing/list-page';
import {
  type SearchParams,
  pageParam,
  textParam,
  type SearchParamsProps,
} from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import styles from '@/components/listing/listing.module.css';
import { listCategories, listPosts, listTags } from '@/server/features/content/lists';
type Filters = { category?: string; tag?: string };

/** The list with these filters (first page): the query holds only the filters that are set. */
function postsHref({ category, tag }: Filters): string {
  const query = new URLSearchParams();
  if (category) query.set('category', category);
  if (tag) query.set('tag', tag);
  const text = query.toString();
  return text ? `/posts?${text}` : '/posts';
}

/** The filters of the request and the names they have (undefined for an id nobody knows). */
async function readFilters(searchParams: SearchParams) {
  const query = await searchParams;
  const category = textParam(query.category);
  const tag = textParam(query.tag);
  const [categories, tags] = await Promise.all([listCategories(), listTags()]);
  return {
    page: pageParam(query.page),
    category,
    tag,
    categories,
    categoryName: category ? categories.find((c) => c.id === category)?.name : undefined,
    tagName: tag ? tags.find((t) => t.id === tag)?.name : undefined,
  };
}

/** 「記事」, 「特集「…」の記事」, 「タグ「…」の記事」 or 「特集「…」・タグ「…」の記事」. */
function listTitle(categoryName: string | undefined, tagName: string | undefined): string {
  const parts = [
    categoryName ? `特集「${categoryName}」` : null,
    tagName ? `タグ「${tagName}」` : null,
  ].filter(Boolean);
  return parts.length ? `${parts.join('・')}の記事` : '記事';
}

export async function generateMetadata({ searchParams }: SearchParamsProps) {
  const { page, category, tag, categoryName, tagName } = await readFilters(searchParams);
  const title = listTitle(categoryName, tagName);
  return sitePageMetadata({
    title: page > 1 ? `${title}（${page} ページ目）` : title,
    description: 'デザインの現場を伝えるインタビュー、レポート、インサイトの記事一覧。',
    path: '/posts',
    // The filtered and later pages are the same list again: only the first page is indexed.
    noIndex: !!(category || tag || page > 1),
  });
}

export default async function PostsPage({ searchParams }: SearchParamsProps) {
  const { page, category, tag, categories, categoryName, tagName } =
    await readFilters(searchParams);
  const posts = await listPosts({ page, category, tag });
  const filtered = !!(category || tag);
  return (
    <ListPage title={listTitle(categoryName, tagName)} lead={<p>{posts.totalCount} 件の記事</p>}>
      <nav aria-label="特集で絞り込む">
        <ul className={styles.filters}>
          <li>
            {/* Every post: no filter at all, so it is the current one only when none is set. */}
            <Link href="/posts" aria-current={!filtered ? 'true' : undefined}>
              すべて
            </Link>
          </li>
          {categories.map((c) => (
            <li key={c.id}>
              {/* A category keeps the tag: the link is the current list when both match. */}
              <Link
                href={postsHref({ category: c.id, tag })}
                aria-current={category === c.id ? 'true' : undefined}
              >
                {c.name}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {filtered ? (
        <ul className={styles.filters} aria-label="絞り込み中の条件">
          {category ? (
            <FilterChip
              label={`特集: ${categoryName ?? '不明な特集'}`}
              clearHref={postsHref({ tag })}
            />
          ) : null}
          {tag ? (
            <FilterChip
              label={`タグ: ${tagName ?? '不明なタグ'}`}
              clearHref={postsHref({ category })}
            />
          ) : null}
        </ul>
      ) : null}
      <PagedCards
        list={posts}
        card={postCard}
        basePath="/posts"
        params={{ category, tag }}
        empty={
          <EmptyState action={{ href: '/posts', label: 'すべての記事を見る' }}>
            条件に合う記事はまだありません。
          </EmptyState>
        }
      />
    </ListPage>
  );
}

/** A filter in use: following it lists the posts without this one filter. */
function FilterChip({ label, clearHref }: { label: string; clearHref: string }) {
  return (
    <li>
      <Link href={clearHref} aria-label={`${label} の絞り込みを解除`}>
        {label}
        <span aria-hidden="true">&nbsp;×</span>
      </Link>
    </li>
  );
}
