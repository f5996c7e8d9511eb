import '@/styles/base';
import { gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { NewsletterStep, StepBreadcrumb } from '@/components/admin/newsletter/newsletter-step';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import { newsletterPageMetadata, newsletterPostId } from '@/components/admin/newsletter/post-page';
import type { RouteParamsProps, SearchParamsProps } from '@/components/listing/page-params';
import { AUDIENCES, type Audience, newsletterPaths } from '@/lib/newsletter/console';
import { newsletterStepPage, requireNewsletterStaff } from '@/server/features/newsletter/console';
import { readFlash } from '@/server/platform/http/read-flash';

type Props = RouteParamsProps<'endpoint' | 'contentId'> & SearchParamsProps;

export const generateMetadata = gatedMetadata(
  requireNewsletterStaff,
  newsletterPageMetadata('メールで配信', newsletterPaths.step),
);

/** The 「メールで配信」 step of a post (posts only: the newsletter is made of articles). */
export default async function NewsletterStepPage({ params, searchParams }: Props) {
  const contentId = await newsletterPostId(params);
  const asked = (await searchParams).audience;
  const audience: Audience = AUDIENCES.find((a) => a === asked) ?? 'free';
  const step = await newsletterStepPage(contentId, audience);
  const flash = await readFlash();
  return (
    <div className={styles.page}>
      <StepBreadcrumb post={step.post} />
      <h1 className={styles.title}>メールで配信</h1>
      <PageMessages flash={flash} />
      <NewsletterStep {...step} />
    </div>
  );
}
