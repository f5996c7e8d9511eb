import 'server-only';
import { headers } from 'next/headers';
import { type Flash, FLASH_HEADER, decodeFlash } from '@/lib/http/flash';

/**
 * The messages of a form posted without JavaScript, for this page view only
 * (src/server/features/front/page-requests.ts).
 */
export async function readFlash(): Promise<Flash | null> {
  return decodeFlash((await headers()).get(FLASH_HEADER));
}

/** What was typed in a text field of that form, to put back. */
export function typedText(flash: Flash | null, name: string): string | undefined {
  const value = flash?.values[name];
  return typeof value === 'string' ? value : undefined;
}
