import { ShareActions } from './share-actions.client';
import styles from './share-links.module.css';

/**
 * Share links to the services Japanese readers use; plain links, no third-party scripts. With
 * JavaScript, a copy-link button and the phone's own share sheet join them (ShareActions).
 */
export function ShareLinks({ url, title }: { url: string; title: string }) {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(title);
  const links = [
    { label: 'X', href: `https://x.com/intent/post?text=${t}&url=${u}` },
    { label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { label: 'LINE', href: `https://social-plugins.line.me/lineit/share?url=${u}` },
    { label: 'はてなブックマーク', href: `https://b.hatena.ne.jp/entry/panel/?url=${u}` },
  ];
  return (
    <nav className={styles.share} aria-label="この記事を共有する">
      <span className={styles.label}>共有</span>
      <ul className={styles.links}>
        {links.map((link) => (
          <li key={link.label}>
            <a href={link.href} target="_blank" rel="noopener noreferrer">
              {link.label}
              <span className="visually-hidden">（新しいウィンドウで開きます）</span>
            </a>
          </li>
        ))}
      </ul>
      <ShareActions url={url} title={title} />
    </nav>
  );
}
