import 'server-only';
import { env } from '@/env';
import { getDb } from '@/server/platform/db/client';
import { endpoint } from '@/server/features/identity';
import { clippedFields } from '@/server/platform/http/flash-values';
import type { FormInput } from '@/server/platform/http/form-endpoint';
import type { InquiryKind } from '@/lib/inquiries';
import { submitInquiry } from './inquiries';

/**
 * POST /api/jobs/contact and POST /api/biz/request, with the contact form's protocol
 * (src/server/features/contact/contact-http.ts): JSON for fetch, a 303 for a plain post (to the sent
 * page, or back to the form with its messages and what was typed).
 */

// 4,000 characters of Japanese, percent-encoded by a plain form post, is about 36 KB.
const MAX_BYTES = 64 * 1024;

/** Bytes of each field that go back to a plain post's form: the cookie stays under 4 KB. */
const SHORT = 300;
export const jobPostingFlash = clippedFields({
  company: SHORT,
  name: SHORT,
  email: SHORT,
  phone: 60,
  message: 1200,
});
export const partnerApplicationFlash = clippedFields({
  company: SHORT,
  name: SHORT,
  email: SHORT,
  phone: 60,
  website: SHORT,
  companySize: 60,
  plan: 120,
  message: 800,
});

/** An inquiry form's endpoint: the contact form's protocol and limits, its own page and fields. */
const inquiryEndpoint = (
  kind: InquiryKind,
  form: { name: string; formPage: string; flashValues: (raw: FormInput) => FormInput },
) =>
  endpoint(
    {
      ...form,
      maxBytes: MAX_BYTES,
      auth: 'optional',
      // The schema drops them from the message (src/server/platform/forms/text-fields.ts).
      keepControlChars: ['message'],
    },
    async ({ input, user, ip }) =>
      submitInquiry(kind, { db: await getDb(), contactTo: env().CONTACT_TO }, input, { ip }, user),
  );

export const handleJobPostingInquiryPost = inquiryEndpoint('job-posting', {
  name: 'jobs-contact',
  formPage: '/jobs/about/contact',
  flashValues: jobPostingFlash,
});

export const handlePartnerApplicationPost = inquiryEndpoint('partner-application', {
  name: 'biz-request',
  formPage: '/biz/request',
  flashValues: partnerApplicationFlash,
});
