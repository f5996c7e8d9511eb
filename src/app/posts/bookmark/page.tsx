import '@/styles/base';
import { Notice } from '@/components/account/account-page';
import { BookmarkList } from '@/components/bookmarks/bookmark-list';
import styles from '@/components/bookmarks/bookmark-list.module.css';
import { EmptyState, ListPage, Pagination } from '@/components/listing/list-page';
import { pageParam, type SearchParamsProps } from '@/components/listing/page-params';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { bookmarkPageOf } from '@/server/features/bookmarks/bookmark-page';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireUser } from '@/server/features/identity/session';
import { formatNumber } from '@/lib/format';

// A static segment beside /posts/[contentId]: the router prefers it, so no post can shadow it.
export const metadata = sitePageMetadata({
  title: 'ブックマーク',
  description: 'ブックマークした記事・音声・動画・コネクトの一覧です。',
  path: '/posts/bookmark',
  noIndex: true,
});

/** The signed-in reader's bookmarks, newest first, 20 a page, each removable. */
export default async function BookmarksPage({ searchParams }: SearchParamsProps) {
  const user = await requireUser('/posts/bookmark');
  const page = pageParam((await searchParams).page);
  const [bookmarks, flash] = await Promise.all([bookmarkPageOf(user.id, page), readFlash()]);
  return (
    <ListPage
      title="ブックマーク"
      lead={
        bookmarks.total > 0 ? (
          <p>{formatNumber(bookmarks.total)} 件を新しい順に表示しています。</p>
        ) : null
      }
    >
      {flash?.message ? (
        <div className={styles.notice}>
          <Notice tone="error">
            <p>{flash.message}</p>
          </Notice>
        </div>
      ) : null}
      {bookmarks.total === 0 ? (
        <EmptyState action={{ href: '/posts', label: '記事を探す' }}>
          ブックマークした記事はまだありません。記事の「ブックマーク」ボタンで、あとで読みたい記事をここに保存できます。
        </EmptyState>
      ) : bookmarks.rows.length === 0 ? (
        <EmptyState action={{ href: '/posts/bookmark', label: '最初のページへ' }}>
          このページにはブックマークがありません。
        </EmptyState>
      ) : (
        <BookmarkList rows={bookmarks.rows} />
      )}
      <Pagination basePath="/posts/bookmark" page={page} totalPages={bookmarks.totalPages} />
    </ListPage>
  );
}
