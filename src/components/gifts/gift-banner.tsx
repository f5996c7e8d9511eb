import { Link } from '@/components/layout/site-link';
import { signInHref, signUpHref } from '@/components/layout/sign-in-links';
import { plansPath } from '@/lib/confirm-path';
import { giftDaysLeft, giftPath } from '@/lib/gifts/gift-link';
import type { GiftGrant } from '@/lib/access/post-access';
import styles from './gifts.module.css';

/**
 * The top of a post opened by a gift link (docs/decisions/037-gift-articles.md): who gave it,
 * how long it stays open, and what opens every post. Rendered only for that reader (the page is
 * never cached), so the days left are counted at render. Signing up or in returns to the gift
 * link itself, so the new member reads on under the gift; the token goes into those two links
 * only (never to the plans, whose `next` the checkout hands the billing provider).
 */
export function GiftBanner({
  gift,
  token,
  signedIn,
  returnTo,
  now = new Date(),
}: {
  gift: GiftGrant;
  /** The link's token, which opened this post (`gift.contentId`). */
  token: string;
  signedIn: boolean;
  /** The post's path, without the token. */
  returnTo: string;
  now?: Date;
}) {
  const from = gift.giverName ? `${gift.giverName}さん` : '会員の方';
  const back = giftPath(gift.contentId, token);
  return (
    <aside className={styles.banner} aria-labelledby="gift-banner-title">
      <p id="gift-banner-title" className={styles.bannerTitle}>
        {from}からのギフト記事です（あと{giftDaysLeft(gift.expiresAt, now)}日）
      </p>
      <p className={styles.bannerText}>
        この記事は、ギフトのリンクからどなたでも全文をお読みいただけます。ほかの記事も読むには、会員登録のうえ有料プランをお選びください。
      </p>
      <p className={styles.bannerLinks}>
        {signedIn ? (
          <Link href={plansPath(returnTo)} prefetch={false}>
            有料プランを見る
          </Link>
        ) : (
          <>
            <Link href={signUpHref(back)} prefetch={false}>
              無料で会員登録する
            </Link>
            <Link href={signInHref(back)} prefetch={false}>
              ログイン
            </Link>
          </>
        )}
      </p>
    </aside>
  );
}

/** Beside the paywall, when a gift link was followed but opened nothing. */
export function GiftRefusedNote() {
  return (
    <p className={styles.refused} role="note">
      このギフトリンクではお読みいただけません。リンクの有効期限（贈られてから7日間）が過ぎたか、リンクが正しくありません。
    </p>
  );
}

/** The 「ギフト」 link of the share area, for a reader who may give this post. */
export function GiftLink({ contentId }: { contentId: string }) {
  return (
    <p className={styles.giftLink}>
      <Link href={`/posts/${contentId}/gift`} prefetch={false} className={styles.giftButton}>
        ギフト
      </Link>
      <span className={styles.giftHint}>
        有料会員の特典：この記事を7日間、どなたでも全文読めるリンクにして贈れます。
      </span>
    </p>
  );
}
