import { getDb } from '@/server/platform/db/client';
import { handleApplyClick } from '@/server/features/partners/jobs/apply-clicks';

// Counted per click: never prerendered or cached.
export const dynamic = 'force-dynamic';

type Context = { params: Promise<{ contentId: string }> };

/** 「この求人に応募する」: counts the click, then 303 to the listing's own address. */
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { contentId } = await params;
  return handleApplyClick(request, contentId, { db: await getDb() });
}
