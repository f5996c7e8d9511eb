import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { StaffPageTitle } from '@/components/admin/staff-list-page';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import { requireConsoleUser } from '@/server/features/admin/content-pages';
import styles from '@/components/admin/admin.module.css';
import { consolePaths } from '@/lib/admin-content';
import { contentHome } from '@/server/features/admin/content-pages';

export const generateMetadata = gatedMetadata(
  requireConsoleUser,
  accountMetadata('コンテンツ', '/admin/content'),
);

/** Every kind of content, with how many items and drafts each has (editors and admins). */
export default async function ContentHomePage() {
  const home = await contentHome();
  if (!home.builtIn) {
    return (
      <div className={styles.page}>
        <h1 className={styles.title}>コンテンツ</h1>
        <p>
          このサイトは外部の microCMS からコンテンツを読み込んでいます（CMS_BASE_URL
          が設定されています）。コンテンツの編集は microCMS の管理画面で行ってください。
        </p>
      </div>
    );
  }
  const lists = home.kinds.filter(({ def }) => def.kind === 'list');
  const pages = home.kinds.filter(({ def }) => def.kind === 'object');
  return (
    <div className={styles.page}>
      <StaffPageTitle title="コンテンツ" />
      <h2>一覧のあるコンテンツ</h2>
      <ul className={styles.cards}>
        {lists.map(({ def, total, drafts, scheduled, inReview }) => (
          <li key={def.endpoint}>
            <Link href={consolePaths.list(def.endpoint)} className={styles.card}>
              <strong>{def.label}</strong>
              {total ? `${total}件` : 'まだありません'}
              {drafts ? `（下書き・未公開の変更 ${drafts}件）` : ''}
              {scheduled ? `（予約公開 ${scheduled}件）` : ''}
              {inReview ? `（寄稿の審査待ち ${inReview}件）` : ''}
            </Link>
          </li>
        ))}
      </ul>
      <h2>ページ</h2>
      <ul className={styles.cards}>
        {pages.map(({ def, total }) => (
          <li key={def.endpoint}>
            <Link href={consolePaths.edit(def.endpoint, '')} className={styles.card}>
              <strong>{def.label}</strong>
              {total ? '編集する' : 'まだ作成されていません'}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
