import { Link } from '@/components/layout/site-link';
import styles from '@/components/biz/biz-admin.module.css';

/** One link of a biz screen's link row: another page, or `#section` on this one. */
export type BizLink = { href: string; label: string };

/**
 * The row of links under a biz screen's heading: the pages it leads to and the sections it
 * holds. A section's anchor stays a plain link; another page goes through next/link.
 */
export function BizLinks({ links }: { links: readonly BizLink[] }) {
  return (
    <ul className={styles.links}>
      {links.map(({ href, label }) => (
        <li key={href}>
          {href.startsWith('#') ? <a href={href}>{label}</a> : <Link href={href}>{label}</Link>}
        </li>
      ))}
    </ul>
  );
}
