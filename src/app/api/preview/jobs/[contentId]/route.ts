import { previewRoute } from '@/server/features/preview/preview';

export const dynamic = 'force-dynamic';

/**
 * The editors' preview of a `jobs` draft: /jobs/preview/{id}?draftKey=… (the address the admin
 * CLI prints) sends here, where the key is checked and the signed preview cookie is set.
 */
export const GET = previewRoute('jobs', (id) => `/jobs/${id}`);
