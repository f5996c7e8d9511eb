import { notFound } from 'next/navigation';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { ItemCover, ItemHeader } from '@/components/content/item-header';
import { Paywall } from '@/components/content/paywall';
import { RichText } from '@/components/content/rich-text';
import styles from '@/components/content/article.module.css';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { currentViewer } from '@/server/access/current-viewer';
import { connectAccess, leadOf } from '@/server/access/post-access';
import { findOne } from '@/server/content/lists';
import { connectSchema } from '@/server/content/schemas';

type Props = { params: Promise<{ contentId: string }> };

const findConnect = async (id: string) => findOne('connect', connectSchema, id);

export async function generateMetadata({ params }: Props) {
  const page = await findConnect((await params).contentId);
  if (!page) return { title: 'ページが見つかりません', robots: { index: false } };
  // SPEC §2: title, description and image from the connect page itself.
  return sitePageMetadata({
    title: page.title,
    description: page.description,
    path: `/connect/${page.id}`,
    image: page.coverImage ?? null,
  });
}

/** A connect page: signed-in members read it all; others see the lead and a way in. */
export default async function ConnectDetailPage({ params }: Props) {
  const page = await findConnect((await params).contentId);
  if (!page) notFound();
  const access = connectAccess(await currentViewer());
  const body = page.body ?? '';
  return (
    <article className={styles.article}>
      <ItemHeader
        kicker="コネクト"
        title={page.title}
        date={page.publishedAt ?? page.createdAt}
        description={page.description}
      />
      <div className={styles.actions}>
        <BookmarkButton endpoint="connect" contentId={page.id} title={page.title} />
      </div>
      <ItemCover image={page.coverImage} />
      <div className={styles.body}>
        {access.full ? (
          <RichText html={body} />
        ) : (
          <>
            <RichText html={leadOf(body)} className={styles.lead} />
            <Paywall
              reason={access.reason}
              returnTo={`/connect/${page.id}`}
              heading="コネクトは会員のためのページです"
              signUpText="無料の会員登録でお読みいただけます。すでに会員の方はログインしてください。"
              subscribeText="会員の方はお読みいただけます。"
            />
          </>
        )}
      </div>
    </article>
  );
}
