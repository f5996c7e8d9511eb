import { PhraseText } from '@/components/content/phrase-text';
import { HeroActions } from '@/components/home/hero-actions';
import { SITE_DESCRIPTION, SITE_TAGLINE } from '@/lib/site';
import { currentViewer } from '@/server/features/access/current-viewer';
import styles from './home.module.css';

/**
 * The site's line and the actions that fit the viewer, as a slim band: a design publisher
 * leads with its story, so the lead story below stays above the fold on a laptop. Signed-in
 * readers know what the site is: for them the band drops its introduction.
 */
export async function HomeHero() {
  const viewer = await currentViewer();
  return (
    <section className={styles.hero} aria-labelledby="hero-heading">
      <div className={styles.heroInner}>
        <div className={styles.heroText}>
          <h1 id="hero-heading" className={styles.heroHeading}>
            <PhraseText text={SITE_TAGLINE} />
          </h1>
          {viewer.kind === 'anonymous' ? (
            <p className={styles.heroLead}>{SITE_DESCRIPTION}</p>
          ) : null}
        </div>
        <div className={styles.heroActions}>
          <HeroActions />
        </div>
      </div>
    </section>
  );
}
