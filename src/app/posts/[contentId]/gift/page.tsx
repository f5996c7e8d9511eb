import '@/styles/base';
import type { Metadata } from 'next';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { CopyTextButton } from '@/components/admin/copy-text-button.client';
import { PostForm } from '@/components/forms/form.client';
import styles from '@/components/gifts/gifts.module.css';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { GIFT_DAYS, allowanceText } from '@/lib/gifts/gift-link';
import { doneMessage, failure, typedIn } from '@/lib/http/form-flash';
import { mayGift } from '@/lib/access/post-access';
import { readPost } from '@/server/features/access/read';
import {
  NEW_GIFT_URL_VALUE,
  giftAllowanceFor,
  giftPagePath,
} from '@/server/features/gifts/gifts-http';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireUser } from '@/server/features/identity/session';

export async function generateMetadata({
  params,
}: RouteParamsProps<'contentId'>): Promise<Metadata> {
  return accountMetadata('記事をギフトする', giftPagePath((await params).contentId));
}

const URL_ID = 'new-gift-url';

/**
 * Where a paid reader makes a gift link of a post (docs/decisions/037-gift-articles.md), reached
 * from the 「ギフト」 link of the post's share area. A plain form post to /api/gifts, so it works
 * without JavaScript; the new link comes back once in the one-time message (it is stored only as
 * a hash) and is shown here with a copy button. The page reads the user: never cached.
 */
export default async function GiftPage({ params }: RouteParamsProps<'contentId'>) {
  const { contentId } = await params;
  const user = await requireUser(giftPagePath(contentId));
  const read = await readPost(contentId);
  if (!read || read.preview) notFound();
  const post = read.item;
  const postPath = `/posts/${post.id}`;
  const flash = await readFlash();
  const notice = doneMessage(flash);
  const newUrl = notice ? typedIn(flash, NEW_GIFT_URL_VALUE) : undefined;
  const giftable = mayGift(read.viewer, post);
  const allowance = giftable ? await giftAllowanceFor(user.id) : null;

  return (
    <AccountPage
      title="記事をギフトする"
      lead={
        <p>
          <Link href={postPath}>「{post.title}」</Link>
          を、会員でない方も含めてどなたでも{GIFT_DAYS}日間、全文読めるリンクにして贈れます。
        </p>
      }
      footer={<Link href={postPath}>記事に戻る</Link>}
    >
      {notice ? <Notice>{notice}</Notice> : null}
      {newUrl ? (
        <section className={styles.link} aria-labelledby="gift-url-title">
          <h2 id="gift-url-title" className={styles.linkLabel}>
            ギフトリンク（{GIFT_DAYS}日間有効）
          </h2>
          <code id={URL_ID} className={styles.url}>
            {newUrl}
          </code>
          <CopyTextButton
            targetId={URL_ID}
            what="リンク"
            primary
            className={styles.copy}
            statusClassName={styles.copy}
          />
          <p>
            このリンクが表示されるのは今回だけです。メールやメッセージで贈りたい方に送ってください。
          </p>
        </section>
      ) : null}
      {!giftable ? (
        <Notice tone="info">
          {post.isPublicPreview ? (
            <p>この記事はどなたでもお読みいただけます。ギフトにせず、そのまま共有してください。</p>
          ) : (
            <p>
              ギフトは有料会員の方が贈れる特典です。
              <Link href="/service-plans">有料プランを見る</Link>
            </p>
          )}
        </Notice>
      ) : (
        <>
          <p className={styles.allowance} aria-live="polite">
            {allowanceText(allowance?.left ?? 0)}
          </p>
          <ul className={styles.rules}>
            <li>
              リンクを開いた方は、ログインなしで{GIFT_DAYS}
              日間この記事の全文を読めます。ほかの記事は開きません。
            </li>
            <li>ギフトは毎月{allowance?.limit}本まで贈れます（日本時間の毎月1日に戻ります）。</li>
            <li>記事の冒頭に、あなたの表示名とともに「ギフト記事」と表示されます。</li>
          </ul>
          {allowance && allowance.left > 0 ? (
            <PostForm
              action="/api/gifts"
              submitLabel="ギフトリンクを作る"
              initialErrors={failure(flash)}
            >
              <input type="hidden" name="postId" value={post.id} />
            </PostForm>
          ) : null}
        </>
      )}
    </AccountPage>
  );
}
