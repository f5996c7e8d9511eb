import 'server-only';
import { env } from '@/env';
import { getDb } from '@/server/platform/db/client';
import { endpoint } from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import { submitContact } from './contact';

/**
 * POST /api/contact. The form's protocol (src/server/features/identity/endpoint.ts): JSON with a status
 * for fetch, a 303 for a plain post (to /contact?sent=1, or back to the form with its messages).
 */

// 4,000 characters of Japanese, percent-encoded by a plain form post, is about 36 KB.
const MAX_BYTES = 64 * 1024;

/** Bytes of each field that go back to a plain post's form (flash-values.ts). */
const FLASH_BYTES: Record<string, number> = { name: 300, email: 300, subject: 120, message: 1200 };

/** Only the form's own fields, each clipped, for the one-time cookie. */
export const flashInput = clippedFields(FLASH_BYTES);

export const handleContactPost = endpoint(
  {
    name: 'contact',
    maxBytes: MAX_BYTES,
    auth: 'optional',
    formPage: '/contact',
    flashValues: flashInput,
    // The schema drops them from the message (src/server/features/contact/contact.ts).
    keepControlChars: ['message'],
  },
  async ({ input, user, ip }) =>
    submitContact({ db: await getDb(), contactTo: env().CONTACT_TO }, input, { ip }, user),
);
