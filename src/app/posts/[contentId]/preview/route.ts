import { previewRoute } from '@/server/preview/preview';

export const dynamic = 'force-dynamic';
export const GET = previewRoute('posts', (id) => `/posts/${id}`);
