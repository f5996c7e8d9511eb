import type { Metadata } from 'next';
import Image from 'next/image';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { RichText } from '@/components/content/rich-text';
import styles from '@/components/content/article.module.css';
import { env } from '@/env';
import { formatDateJa, isoDateJa } from '@/lib/format';
import { pageMetadata } from '@/lib/metadata';
import { currentViewer } from '@/server/access/current-viewer';
import { leadOf, postAccess } from '@/server/access/post-access';
import { getFreePlanPostIds } from '@/server/content/client';
import { findPost } from '@/server/content/items';
import { siteContent } from '@/server/content/site-content';
import { previewDraftKey } from '@/server/preview/preview';

type Props = { params: Promise<{ contentId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { contentId } = await params;
  const draftKey = await previewDraftKey('posts', contentId);
  const post = await findPost(contentId, draftKey);
  if (!post) return { title: 'ページが見つかりません', robots: { index: false } };
  return pageMetadata(
    {
      title: post.title,
      description: post.description,
      path: `/posts/${post.id}`,
      image: post.coverImage
        ? { ...post.coverImage, alt: post.coverImage.alt ?? post.title }
        : null,
      noIndex: !!draftKey,
    },
    { siteUrl: env().SITE_URL, siteName: env().SITE_NAME },
  );
}

export default async function PostPage({ params }: Props) {
  const { contentId } = await params;
  const draftKey = await previewDraftKey('posts', contentId);
  const post = await findPost(contentId, draftKey);
  if (!post) notFound();

  const viewer = await currentViewer(draftKey);
  // Only a signed-in free member's access depends on the free-plan list.
  const access = postAccess(
    viewer,
    post,
    viewer.kind === 'member' && !viewer.paid ? await getFreePlanPostIds(siteContent()) : [],
  );
  const body = post.body ?? '';
  const date = post.publishedAt ?? post.updatedAt;

  return (
    <article className={styles.article}>
      <header className={styles.header}>
        {post.category ? <p className={styles.kicker}>{post.category.name}</p> : null}
        <h1 className={styles.title}>{post.title}</h1>
        <p className={styles.meta}>
          <time dateTime={isoDateJa(date)}>{formatDateJa(date)}</time>
          {post.writers.length > 0 ? (
            <span>文・{post.writers.map((w) => w.name).join('、')}</span>
          ) : null}
        </p>
        {post.description ? <p className={styles.description}>{post.description}</p> : null}
      </header>

      {post.coverImage ? (
        <figure className={styles.cover}>
          <Image
            src={post.coverImage.url}
            alt={post.coverImage.alt ?? ''}
            width={post.coverImage.width ?? 1200}
            height={post.coverImage.height ?? 675}
            sizes="(min-width: 72rem) 72rem, 100vw"
            priority
          />
        </figure>
      ) : null}

      <div className={styles.body}>
        {access.full ? (
          <RichText html={body} />
        ) : (
          <>
            <RichText html={leadOf(body)} className={styles.lead} />
            <aside className={styles.paywall} aria-labelledby="paywall-heading">
              <h2 id="paywall-heading" className={styles.paywallHeading}>
                この記事は会員限定です
              </h2>
              <p>
                {access.reason === 'sign-up'
                  ? '無料の会員登録で、会員限定記事のうち最新 3 本を全文お読みいただけます。すべての記事を読むには有料プランへどうぞ。'
                  : '有料プランに登録すると、すべての記事を全文お読みいただけます。'}
              </p>
              <p className={styles.paywallActions}>
                {access.reason === 'sign-up' ? (
                  <>
                    <Link href="/sign-up" className={styles.primaryAction}>
                      無料で会員登録
                    </Link>
                    <Link href={`/login?next=${encodeURIComponent(`/posts/${post.id}`)}`}>
                      ログイン
                    </Link>
                  </>
                ) : null}
                <Link
                  href="/service-plans"
                  className={access.reason === 'subscribe' ? styles.primaryAction : undefined}
                >
                  料金プランを見る
                </Link>
              </p>
            </aside>
          </>
        )}
      </div>
    </article>
  );
}
