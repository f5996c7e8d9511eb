import 'server-only';
import { headers } from 'next/headers';
import { type Flash, FLASH_HEADER, decodeFlash } from './flash';

/** The messages of a form posted without JavaScript, for this page view only (src/proxy.ts). */
export async function readFlash(): Promise<Flash | null> {
  return decodeFlash((await headers()).get(FLASH_HEADER));
}
