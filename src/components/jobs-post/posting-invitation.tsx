import { Link } from '@/components/layout/site-link';
import { ButtonLink } from '@/components/ui/button';
import styles from './jobs-post.module.css';

/**
 * /jobs/post for those who do not write listings: a visitor is asked to sign in (partners
 * sign in to post); a signed-in reader who is not a partner, or staff (who review listings,
 * not write them), learns what the programme offers and where to ask about it.
 */

export function SignInToPost({ next }: { next: string }) {
  return (
    <div className={styles.invite}>
      <p>
        求人の掲載は、AXIS
        のパートナープログラムにご参加の企業さま向けの機能です。パートナー企業のご担当者さまは、ログインしてから求人を作成してください。
      </p>
      <div className={styles.ctas}>
        <ButtonLink
          href={`/login?next=${encodeURIComponent(next)}`}
          color="yellow"
          width="auto"
          height={48}
        >
          ログイン
        </ButtonLink>
        <ButtonLink href="/biz/about" color="white" width="auto" height={48}>
          パートナープログラムについて
        </ButtonLink>
      </div>
      <p>
        求人の掲載をご検討中の企業さまは、
        <Link href="/jobs/about/contact">求人掲載のお問い合わせ</Link>
        からご相談ください。
      </p>
    </div>
  );
}

export function ProgrammeOffer({ staff }: { staff: boolean }) {
  return (
    <div className={styles.invite}>
      {staff ? (
        <p>
          編集部のアカウントでは求人を作成できません。パートナー企業の求人の審査は
          <Link href="/biz/axis-admin">パートナー管理</Link>から行えます。
        </p>
      ) : (
        <p>
          求人の掲載は、パートナープログラムにご参加の企業さま向けの機能です。このアカウントはまだパートナー企業に登録されていません。
        </p>
      )}
      <section aria-labelledby="programme-points" className={styles.pointsSection}>
        <h2 id="programme-points" className={styles.asideTitle}>
          パートナープログラムでできること
        </h2>
        <ul className={styles.points}>
          <li>
            <strong>デザインに関心の高い読者に届く</strong>
            求人は AXIS の求人一覧と検索に掲載され、デザイン・建築・編集の分野で働く読者が読みます。
          </li>
          <li>
            <strong>編集部が内容を確認してから公開</strong>
            掲載前に編集部が審査し、必要があれば修正をお願いします。
          </li>
          <li>
            <strong>反響をいつでも確認</strong>
            求人ごとの閲覧数と応募ボタンのクリック数を、企業の管理画面で確認できます。
          </li>
          <li>
            <strong>自社のページで求人を管理</strong>
            下書き、プレビュー、募集の終了まで、担当者がご自身で行えます。
          </li>
        </ul>
      </section>
      <div className={styles.ctas}>
        <ButtonLink href="/jobs/about/contact" color="yellow" width="auto" height={48}>
          求人掲載のお問い合わせ
        </ButtonLink>
        <ButtonLink href="/biz/about" color="white" width="auto" height={48}>
          パートナープログラムについて
        </ButtonLink>
      </div>
    </div>
  );
}
