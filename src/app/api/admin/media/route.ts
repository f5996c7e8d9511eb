import { mediaRoutes } from '@/server/features/media/http';

export const dynamic = 'force-dynamic';

/** The media library's list, for the picker (staff only). */
export function GET(request: Request): Promise<Response> {
  return mediaRoutes.list(request);
}

/** An upload from the console (staff only). */
export function POST(request: Request): Promise<Response> {
  return mediaRoutes.upload(request);
}
