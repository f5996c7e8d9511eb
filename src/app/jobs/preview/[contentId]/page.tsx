import '@/styles/base';
import type { Metadata } from 'next';
import { notFound, redirect } from 'next/navigation';
import { ListingPreview } from '@/components/jobs-post/listing-preview';
import { getDb } from '@/server/platform/db/client';
import { LISTING_ID, getListing } from '@/server/features/partners/jobs/listings';
import { editPath } from '@/server/features/partners/jobs/listings-http';
import { currentPartnerActor } from '@/server/features/partners/actor';
import { getPartner, partnerDeps } from '@/server/features/partners/partners';
import { jobPreviewDecision } from '@/server/features/preview/listing-preview';

type Props = {
  params: Promise<{ contentId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = {
  title: '求人のプレビュー',
  robots: { index: false, follow: false },
};

/**
 * /jobs/preview/{contentId}: the editors' draft preview (`?draftKey=`, handed to
 * /api/preview/jobs/{id} as before), or a partner's listing before it is public, for its
 * partner's members and staff. Anyone else: not found, whether the listing exists or not.
 */
export default async function JobPreviewPage({ params, searchParams }: Props) {
  const { contentId } = await params;
  const query = await searchParams;
  const draftKey = typeof query.draftKey === 'string' ? query.draftKey : null;
  const { actor } = await currentPartnerActor();
  const listing = LISTING_ID.test(contentId) ? await getListing(await getDb(), contentId) : null;
  const decision = jobPreviewDecision({ contentId, draftKey, actor, listing });
  if (decision.kind === 'draft-key') redirect(decision.location);
  if (decision.kind === 'not-found' || !listing) notFound();

  const partner = await getPartner(await partnerDeps(), listing.partnerId);
  const backTo =
    actor.kind === 'staff'
      ? {
          href: `/biz/axis-admin/${encodeURIComponent(listing.partnerId)}`,
          label: '審査の画面へ',
        }
      : { href: editPath(listing.id), label: '編集に戻る' };
  return <ListingPreview listing={listing} partner={partner} backTo={backTo} />;
}
