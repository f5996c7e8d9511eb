import { previewRoute } from '@/server/features/preview/preview';

export const dynamic = 'force-dynamic';
export const GET = previewRoute('posts', (id) => `/posts/${id}`);
