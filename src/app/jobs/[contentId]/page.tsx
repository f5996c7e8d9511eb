import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { RichText } from '@/components/content/rich-text';
import styles from '@/components/content/article.module.css';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { env } from '@/env';
import { formatDateJa, isoDateJa } from '@/lib/format';
import { breadcrumbJsonLd, jobPostingJsonLd } from '@/lib/json-ld';
import { pageMetadata } from '@/lib/metadata';
import { PreviewBanner } from '@/components/preview/preview-banner.client';
import { readJob } from '@/server/access/read';

type Props = { params: Promise<{ contentId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { contentId } = await params;
  const found = await readJob(contentId);
  if (!found) return { title: 'ページが見つかりません', robots: { index: false } };
  const job = found.item;
  return pageMetadata(
    {
      title: job.partner ? `${job.title}(${job.partner.name})` : job.title,
      description: job.description,
      path: `/jobs/${job.id}`,
      image: job.coverImage ?? null,
      noIndex: found.preview,
    },
    { siteUrl: env().SITE_URL, siteName: env().SITE_NAME },
  );
}

/** Job listings are public (DESIGN.md "Who reads what"). */
export default async function JobPage({ params }: Props) {
  const { contentId } = await params;
  const found = await readJob(contentId);
  if (!found) notFound();
  const job = found.item;
  const site = jsonLdSite();
  const path = `/jobs/${job.id}`;

  return (
    <article className={styles.article}>
      {found.preview ? <PreviewBanner /> : null}
      {found.preview ? null : (
        <JsonLd
          data={[
            jobPostingJsonLd(site, {
              path,
              title: job.title,
              description: job.body || job.description || job.title,
              datePosted: job.publishedAt ?? job.createdAt,
              validThrough: job.closingDate,
              employmentTypes: job.employmentType,
              location: job.location,
              hiringOrganization: job.partner
                ? {
                    name: job.partner.name,
                    url: job.partner.website,
                    logo: job.partner.logo?.url,
                  }
                : null,
            }),
            breadcrumbJsonLd(site, [
              { name: 'ホーム', path: '/' },
              { name: '求人', path: '/jobs' },
              { name: job.title, path },
            ]),
          ]}
        />
      )}
      <header className={styles.header}>
        <p className={styles.kicker}>求人</p>
        <h1 className={styles.title}>{job.title}</h1>
        {job.partner ? <p className={styles.meta}>{job.partner.name}</p> : null}
        {job.description ? <p className={styles.description}>{job.description}</p> : null}
      </header>
      <div className={styles.body}>
        <dl className={styles.facts}>
          {job.employmentType.length > 0 ? (
            <>
              <dt>雇用形態</dt>
              <dd>{job.employmentType.join('、')}</dd>
            </>
          ) : null}
          {job.location ? (
            <>
              <dt>勤務地</dt>
              <dd>{job.location}</dd>
            </>
          ) : null}
          {job.salary ? (
            <>
              <dt>給与</dt>
              <dd>{job.salary}</dd>
            </>
          ) : null}
          {job.closingDate ? (
            <>
              <dt>募集締切</dt>
              <dd>
                <time dateTime={isoDateJa(job.closingDate)}>{formatDateJa(job.closingDate)}</time>
              </dd>
            </>
          ) : null}
        </dl>
        {job.body ? <RichText html={job.body} /> : null}
        {job.applyUrl ? (
          <p className={styles.paywallActions}>
            <a
              href={job.applyUrl}
              className={styles.primaryAction}
              rel="noopener noreferrer"
              target="_blank"
            >
              この求人に応募する
            </a>
          </p>
        ) : null}
      </div>
    </article>
  );
}
