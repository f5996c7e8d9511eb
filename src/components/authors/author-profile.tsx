import { AuthorLinks } from '@/components/content/author-links';
import { ResponsiveImage } from '@/components/content/responsive-image';
import { PhraseText } from '@/components/content/phrase-text';
import styles from './authors.module.css';

/** What the head of an author page shows of a writer (the `writers` content type). */
export type AuthorProfileWriter = {
  name: string;
  nameKana?: string;
  role?: string;
  profile?: string;
  avatar?: { url: string; alt?: string; width?: number; height?: number };
  website?: string;
};

/** Only a web address goes into a link (the content model allows http and https only). */
const webAddress = (url: string | undefined) =>
  url && /^https?:\/\//i.test(url) ? url : undefined;

/**
 * The head of an author page: portrait, name and its reading, title, profile, and their own
 * site; `count` says how many pieces the page lists.
 */
export function AuthorProfile({ writer, count }: { writer: AuthorProfileWriter; count: number }) {
  const website = webAddress(writer.website);
  return (
    <header className={writer.avatar ? `${styles.profile} ${styles.withPortrait}` : styles.profile}>
      {writer.avatar ? (
        <div className={styles.portrait}>
          <ResponsiveImage
            src={writer.avatar.url}
            alt={writer.avatar.alt || `${writer.name}の写真`}
            width={160}
            height={160}
            sizes="8rem"
          />
        </div>
      ) : null}
      <div>
        <p className={styles.kicker}>執筆者</p>
        <h1 className={styles.name}>{writer.name}</h1>
        {writer.nameKana ? <p className={styles.reading}>{writer.nameKana}</p> : null}
        {writer.role ? <p className={styles.role}>{writer.role}</p> : null}
        {writer.profile ? <p className={styles.bio}>{writer.profile}</p> : null}
        <p className={styles.facts}>
          <span>{count} 件の記事・番組</span>
          {website ? (
            <a href={website} rel="me noopener" target="_blank">
              ウェブサイト<span className="visually-hidden">（新しいタブで開きます）</span>
            </a>
          ) : null}
        </p>
      </div>
    </header>
  );
}

/** The head of a series page: kicker, title, writers (linked), description and count. */
export function SeriesHeader({
  series,
  count,
  feedUrl,
}: {
  series: {
    title: string;
    description?: string;
    writers: readonly { id: string; name: string }[];
  };
  count: number;
  feedUrl: string;
}) {
  return (
    <header className={styles.profile}>
      <div>
        <p className={styles.kicker}>連載</p>
        <h1 className={styles.name}>
          <PhraseText text={series.title} />
        </h1>
        {series.description ? <p className={styles.bio}>{series.description}</p> : null}
        <p className={styles.facts}>
          <AuthorLinks writers={series.writers} />
          <span>全 {count} 回</span>
          <a href={feedUrl} type="application/rss+xml">
            RSS で購読
          </a>
        </p>
      </div>
    </header>
  );
}
