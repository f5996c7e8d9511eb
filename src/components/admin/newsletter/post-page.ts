import { notFound } from 'next/navigation';
import { accountMetadata } from '@/components/account/metadata';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { NEWSLETTER_ENDPOINT } from '@/lib/newsletter/console';

type PostParams = RouteParamsProps<'endpoint' | 'contentId'>['params'];

/**
 * The post a newsletter page (the step, the confirmation) is about. Posts only: the newsletter
 * is made of articles, so any other endpoint is the 404 page.
 */
export async function newsletterPostId(params: PostParams): Promise<string> {
  const { endpoint, contentId } = await params;
  if (endpoint !== NEWSLETTER_ENDPOINT) notFound();
  return contentId;
}

/** A newsletter page's metadata (for its gate to hand on): its title, at its post's path. */
export function newsletterPageMetadata(title: string, pathOf: (contentId: string) => string) {
  return async ({ params }: { params: PostParams }) =>
    accountMetadata(title, pathOf((await params).contentId));
}
