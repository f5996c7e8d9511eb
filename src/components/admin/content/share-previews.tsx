import { type ShareSurface, SHARE_SURFACES, surfaceText } from '@/lib/share/share-truncate';
import type { ResolvedShare } from '@/lib/share/share-meta';
import styles from './share-panel.module.css';

/**
 * How a link to the item looks where it is found and shared: Google's result, and the cards
 * of X (summary_large_image), Facebook and LINE, each at its real width, its text cut as that
 * surface cuts it (src/lib/share/share-truncate.ts). Each is a labelled figure.
 */

export type PreviewLink = {
  share: ResolvedShare;
  /** The page's address as the result shows it. */
  url: string;
  siteName: string;
  /** The title the generated image draws. */
  imageTitle: string;
};

const LABELS: Record<ShareSurface, string> = {
  google: 'Google 検索結果',
  x: 'X (旧 Twitter) のカード',
  facebook: 'Facebook のカード',
  line: 'LINE のカード',
};

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The image, or the generated one drawn as the site draws it (the title on the site's colours). */
function CardImage({ link, surface }: { link: PreviewLink; surface: ShareSurface }) {
  const { share } = link;
  const height = SHARE_SURFACES[surface].imageHeight;
  if (share.image && !share.imageIsGenerated)
    return (
      // eslint-disable-next-line @next/next/no-img-element -- a preview of any library image
      <img className={styles.cardImage} src={share.image.url} alt="" style={{ height }} />
    );
  return (
    <div className={styles.generated} style={{ height }} aria-hidden="true">
      <span className={styles.generatedSite}>{link.siteName}</span>
      <span className={styles.generatedTitle}>{link.imageTitle}</span>
    </div>
  );
}

function Preview({ surface, children }: { surface: ShareSurface; children: React.ReactNode }) {
  const id = `share-preview-${surface}`;
  return (
    <figure className={styles.preview} aria-labelledby={id} data-surface={surface}>
      <figcaption id={id} className={styles.previewLabel}>
        {LABELS[surface]}
      </figcaption>
      <div className={styles[surface]} style={{ width: SHARE_SURFACES[surface].width }}>
        {children}
      </div>
    </figure>
  );
}

/** A surface's title and description, as it cuts them, in its own classes. */
function LinkText({
  text,
  className,
}: {
  text: { title: string; description: string };
  className: { title: string | undefined; description: string | undefined };
}) {
  return (
    <>
      <p className={className.title} data-preview="title">
        {text.title}
      </p>
      <p className={className.description} data-preview="description">
        {text.description}
      </p>
    </>
  );
}

export function SharePreviews({ link }: { link: PreviewLink }) {
  const host = hostOf(link.url);
  const path = link.url
    .replace(/^https?:\/\/[^/]+/, '')
    .split('/')
    .filter(Boolean);
  const google = surfaceText('google', link.share);
  const x = surfaceText('x', link.share);
  const facebook = surfaceText('facebook', link.share);
  const line = surfaceText('line', link.share);
  return (
    <div className={styles.previews}>
      <Preview surface="google">
        <p className={styles.googleSite}>
          <span className={styles.googleName}>{link.siteName}</span>
          <span className={styles.googleUrl}>{[`https://${host}`, ...path].join(' › ')}</span>
        </p>
        <LinkText
          text={google}
          className={{ title: styles.googleTitle, description: styles.googleDescription }}
        />
        {link.share.noIndex ? (
          <p className={styles.noIndex}>noindex: この項目は検索結果に表示されません。</p>
        ) : null}
      </Preview>
      <Preview surface="x">
        <div className={styles.xCard}>
          <CardImage link={link} surface="x" />
          <span className={styles.xTitle} data-preview="title">
            {x.title}
          </span>
        </div>
        <p className={styles.xFrom}>{host} から</p>
      </Preview>
      <Preview surface="facebook">
        <CardImage link={link} surface="facebook" />
        <div className={styles.facebookText}>
          <p className={styles.facebookHost}>{host.toUpperCase()}</p>
          <LinkText
            text={facebook}
            className={{ title: styles.facebookTitle, description: styles.facebookDescription }}
          />
        </div>
      </Preview>
      <Preview surface="line">
        <CardImage link={link} surface="line" />
        <div className={styles.lineText}>
          <LinkText
            text={line}
            className={{ title: styles.lineTitle, description: styles.lineDescription }}
          />
          <p className={styles.lineHost}>{host}</p>
        </div>
      </Preview>
    </div>
  );
}
