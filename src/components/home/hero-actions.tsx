import { Link } from '@/components/layout/site-link';
import { currentViewer } from '@/server/features/access/current-viewer';
import type { Viewer } from '@/lib/access/post-access';
import styles from './hero-actions.module.css';

type Action = { href: string; label: string };

/**
 * The next step for each viewer: a visitor joins, a free member is shown the paid plans, a paid
 * member goes on reading, staff go to the console. Never an action that would land a signed-in
 * reader back where they are (/sign-up sends them home).
 */
export function heroActionsFor(viewer: Viewer): [primary: Action, secondary: Action] {
  const latest = { href: '/posts', label: '新着記事を読む' };
  switch (viewer.kind) {
    case 'anonymous':
      return [
        { href: '/sign-up', label: '無料で会員登録' },
        { href: '/service-plans', label: '料金プランを見る' },
      ];
    case 'member':
      return viewer.paid
        ? [latest, { href: '/posts/bookmark', label: 'ブックマーク' }]
        : [{ href: '/service-plans', label: '有料プランを見る' }, latest];
    case 'staff':
    case 'preview':
      return [{ href: '/admin', label: '管理画面へ' }, latest];
  }
}

/**
 * The home hero's buttons for the viewer of this render. currentViewer notes the audience, so
 * the page cache keeps one home page per audience (staff renders are not cached).
 */
export async function HeroActions() {
  const [primary, secondary] = heroActionsFor(await currentViewer());
  return (
    <div className={styles.actions}>
      {/* The plans page, the bookmarks and the console are rendered per viewer: no prefetch. */}
      <Link href={primary.href} prefetch={false} className={styles.primary}>
        {primary.label}
      </Link>
      <Link href={secondary.href} prefetch={false} className={styles.secondary}>
        {secondary.label}
      </Link>
    </div>
  );
}
