import Link from 'next/link';
import { notFound } from 'next/navigation';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { SendConfirm } from '@/components/admin/newsletter/send-confirm';
import { failure } from '@/lib/http/form-flash';
import { consolePaths } from '@/lib/admin-content';
import { SEGMENTS, SEND_MODES, newsletterPaths, overlappingSends } from '@/lib/newsletter/console';
import { NEWSLETTER_ENDPOINT } from '@/server/newsletter/queue';
import { sendConfirmPage } from '@/server/newsletter/console';
import { readFlash } from '@/server/http/read-flash';

type Props = {
  params: Promise<{ endpoint: string; contentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props) {
  const { contentId } = await params;
  return accountMetadata('配信の確認', newsletterPaths.confirm(contentId));
}

/** Before a send: the post, the segment and how many readers, and a resend's confirmation. */
export default async function NewsletterConfirmPage({ params, searchParams }: Props) {
  const { endpoint, contentId } = await params;
  if (endpoint !== NEWSLETTER_ENDPOINT) notFound();
  const query = await searchParams;
  const segment = SEGMENTS.find((s) => s === query.segment) ?? 'all';
  const mode = SEND_MODES.find((m) => m === query.mode) ?? 'now';
  const { post, count, sends } = await sendConfirmPage(contentId, segment);
  const flash = await readFlash();
  return (
    <div className={styles.page}>
      <p className={styles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / <Link href="/admin/content">コンテンツ</Link> /{' '}
        <Link href={consolePaths.list(endpoint)}>記事</Link> /{' '}
        <Link href={consolePaths.edit(endpoint, contentId)}>{post.title || '（無題）'}</Link> /{' '}
        <Link href={newsletterPaths.step(contentId)}>メールで配信</Link>
      </p>
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
