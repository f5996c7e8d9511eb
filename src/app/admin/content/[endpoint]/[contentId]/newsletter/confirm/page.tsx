import '@/styles/base';
import { gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { StepBreadcrumb } from '@/components/admin/newsletter/newsletter-step';
import { SendConfirm } from '@/components/admin/newsletter/send-confirm';
import { newsletterPageMetadata, newsletterPostId } from '@/components/admin/newsletter/post-page';
import type { RouteParamsProps, SearchParamsProps } from '@/components/listing/page-params';
import { failure } from '@/lib/http/form-flash';
import { SEGMENTS, SEND_MODES, newsletterPaths, overlappingSends } from '@/lib/newsletter/console';
import { sendConfirmPage, requireNewsletterStaff } from '@/server/features/newsletter/console';
import { readFlash } from '@/server/platform/http/read-flash';

type Props = RouteParamsProps<'endpoint' | 'contentId'> & SearchParamsProps;

export const generateMetadata = gatedMetadata(
  requireNewsletterStaff,
  newsletterPageMetadata('配信の確認', newsletterPaths.confirm),
);

/** Before a send: the post, the segment and how many readers, and a resend's confirmation. */
export default async function NewsletterConfirmPage({ params, searchParams }: Props) {
  const contentId = await newsletterPostId(params);
  const query = await searchParams;
  const segment = SEGMENTS.find((s) => s === query.segment) ?? 'all';
  const mode = SEND_MODES.find((m) => m === query.mode) ?? 'now';
  const { post, count, sends } = await sendConfirmPage(contentId, segment);
  const flash = await readFlash();
  return (
    <div className={styles.page}>
      <StepBreadcrumb post={post} withStep />
      <h1 className={styles.title}>配信の確認</h1>
      <SendConfirm
        post={post}
        segment={segment}
        mode={mode}
        count={count}
        overlapping={overlappingSends(sends, segment)}
        error={failure(flash)?.message ?? null}
      />
    </div>
  );
}
