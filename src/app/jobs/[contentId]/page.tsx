import '@/styles/base';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { type ApplyLinks, JobArticle } from '@/components/jobs/job-article';
import { isFullRemote } from '@/components/jobs/job-facts';
import { jsonLdSite, shareMetadata } from '@/components/listing/site-metadata';
import { PreviewBanner } from '@/components/preview/preview-banner.client';
import { JsonLd } from '@/components/seo/json-ld';
import { isClosed } from '@/lib/jobs';
import { itemBreadcrumbJsonLd } from '@/lib/json-ld/breadcrumbs';
import { jobPostingJsonLd } from '@/lib/json-ld/job-posting';
import { readJob } from '@/server/features/access/read';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import type { Job } from '@/server/features/content/schemas';
import {
  applyEmailOf,
  applyMailto,
  applyUrlOf,
} from '@/server/features/partners/jobs/apply-clicks';
import type { RouteParamsProps } from '@/components/listing/page-params';

/*
 * A closed listing (past its closing day in Japan) answers 200 with a clear closed state, not
 * 410: the App Router gives a page no way to set its status other than 404 (notFound) or a
 * redirect. It is `noindex` and carries no JobPosting data, and it has left the sitemap, the
 * lists and the search, which is what Google asks of an expired posting.
 */

export async function generateMetadata({
  params,
}: RouteParamsProps<'contentId'>): Promise<Metadata> {
  const { contentId } = await params;
  const found = await readJob(contentId);
  if (!found) return { title: 'ページが見つかりません', robots: { index: false } };
  const job = found.item;
  const closed = isClosed(job.closingDate);
  return shareMetadata({
    title: `${closed ? '【募集終了】' : ''}${job.title}${job.partner ? `（${job.partner.name}）` : ''}`,
    description: job.description,
    coverImage: job.coverImage,
    seo: job.seo,
    path: `/jobs/${job.id}`,
    generated: { endpoint: 'jobs', id: job.id, version: job.revisedAt ?? job.updatedAt },
    noIndex: found.preview || closed,
  });
}

/**
 * How to apply: through /jobs/{id}/apply, which counts the click and sends the reader on. A
 * preview of a draft has no published listing for that route to find: its links go straight
 * to the address, uncounted.
 */
function applyLinks(job: Job, preview: boolean): ApplyLinks {
  const url = applyUrlOf(job);
  const email = applyEmailOf(job);
  const route = `/jobs/${encodeURIComponent(job.id)}/apply`;
  return {
    url: url ? (preview ? url : route) : null,
    email: email
      ? { address: email, href: preview ? applyMailto(email, job.title) : `${route}?via=email` }
      : null,
  };
}

/** Job listings are public (docs/decisions/000-design-baseline.md "Who reads what"). */
export default async function JobPage({ params }: RouteParamsProps<'contentId'>) {
  const { contentId } = await params;
  const found = await readJob(contentId);
  if (!found) notFound();
  const job = found.item;
  const closed = isClosed(job.closingDate);
  const site = jsonLdSite();
  const path = `/jobs/${job.id}`;
  const body = job.body ? sanitizeRichText(job.body) : '';

  return (
    <>
      {found.preview ? <PreviewBanner /> : null}
      {found.preview || closed ? null : (
        <JsonLd
          data={[
            jobPostingJsonLd(site, {
              path,
              title: job.title,
              description: body || job.description || job.title,
              datePosted: job.publishedAt ?? job.createdAt,
              validThrough: job.closingDate,
              employmentTypes: job.employmentType,
              location: {
                prefecture: job.prefecture[0],
                detail: job.location,
                fullRemote: isFullRemote(job),
              },
              salary: { unit: job.salaryUnit[0], min: job.salaryMin, max: job.salaryMax },
              hiringOrganization: job.partner
                ? {
                    name: job.partner.name,
                    url: job.partner.website,
                    logo: job.partner.logo?.url,
                  }
                : null,
              identifier: job.id,
            }),
            itemBreadcrumbJsonLd(site, { name: '求人', path: '/jobs' }, { name: job.title, path }),
          ]}
        />
      )}
      <JobArticle job={job} closed={closed} apply={applyLinks(job, found.preview)} />
    </>
  );
}
