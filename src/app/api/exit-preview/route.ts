import { endPreview } from '@/server/features/preview/preview';

export const dynamic = 'force-dynamic';

/** SPEC §7: GET /api/exit-preview; the caller reads only the ok status. */
export async function GET(): Promise<Response> {
  await endPreview();
  return Response.json({ ok: true }, { headers: { 'cache-control': 'no-store' } });
}
