import 'server-only';
import { pageWithin } from '@/server/platform/db/paging';
import { count, desc, eq, sql } from 'drizzle-orm';
import {
  COMPANY_SIZES,
  INQUIRY_COMPANY_MAX,
  INQUIRY_MESSAGE_MAX,
  INQUIRY_NAME_MAX,
  INQUIRY_PHONE_MAX,
  INQUIRY_STATES,
  INQUIRY_WEBSITE_MAX,
  type InquiryFields,
  type InquiryKind,
  type InquiryState,
  PARTNER_PLANS,
} from '@/lib/inquiries';
import { z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import { partnerInquiries } from '@/server/platform/db/schema';
import {
  type PublicFormContext,
  type PublicFormDeps,
  type PublicForm,
  hourlyFormLimits,
  submitPublicForm,
} from '@/server/platform/forms/submit';
import {
  multiLineText,
  optionalMultiLineText,
  requiredLine,
} from '@/server/platform/forms/text-fields';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { emailField } from '@/server/features/identity';
import { inquiryAcknowledged, inquiryReceived } from '@/server/platform/mail/templates';

/**
 * The companies' inquiry forms, built as the contact form is (src/server/features/contact/contact.ts):
 * /jobs/about/contact (a company that wants to post jobs) and /biz/request (an application to
 * the partner programme). Validate, rate limit, keep the row, mail staff when an address is
 * configured, acknowledge to the sender. Staff follow each row through its state.
 */

/** One budget for both forms: they reach the same staff. */
export const INQUIRY_LIMITS = hourlyFormLimits('inquiry');

export const INQUIRY_SENT_PAGES: Record<InquiryKind, string> = {
  'job-posting': '/jobs/about/contact?sent=1',
  'partner-application': '/biz/request?sent=1',
};

const PHONE_INVALID = '電話番号は、半角数字とハイフンで入力してください（例：03-1234-5678）。';
const phoneText = z
  .string()
  .trim()
  .max(INQUIRY_PHONE_MAX, PHONE_INVALID)
  .refine((value) => value === '' || /^\+?[0-9][0-9\- ()]*$/.test(value), PHONE_INVALID)
  .refine((value) => {
    const digits = value.replace(/\D/g, '').length;
    return value === '' || (digits >= 10 && digits <= 15);
  }, PHONE_INVALID);
const optionalPhone = phoneText.nullish().transform((value) => value || null);
const requiredPhone = z
  .string({ error: '電話番号を入力してください。' })
  .trim()
  .min(1, '電話番号を入力してください。')
  .pipe(phoneText);

const WEBSITE_INVALID = 'ウェブサイトは https:// から始まる URL で入力してください。';
const optionalWebsite = z
  .string()
  .trim()
  .nullish()
  .transform((value) => value || null)
  .pipe(
    z
      .string()
      .max(INQUIRY_WEBSITE_MAX, `ウェブサイトは ${INQUIRY_WEBSITE_MAX} 文字以内にしてください。`)
      .refine((value) => {
        if (!/^https?:\/\//i.test(value)) return false;
        try {
          return Boolean(new URL(value).hostname.includes('.'));
        } catch {
          return false;
        }
      }, WEBSITE_INVALID)
      .nullable(),
  );

const company = requiredLine('会社名', INQUIRY_COMPANY_MAX);

export const jobPostingInquiryInput = z.object({
  company,
  name: requiredLine('お名前', INQUIRY_NAME_MAX),
  email: emailField,
  phone: optionalPhone,
  message: multiLineText('お問い合わせ内容', INQUIRY_MESSAGE_MAX),
});

export const partnerApplicationInput = z.object({
  company,
  name: requiredLine('ご担当者名', INQUIRY_NAME_MAX),
  email: emailField,
  phone: requiredPhone,
  website: optionalWebsite,
  companySize: z.enum(COMPANY_SIZES, { error: '従業員数を選んでください。' }),
  plan: z.enum(PARTNER_PLANS, { error: 'ご関心のあるプランを選んでください。' }),
  message: optionalMultiLineText('ご相談・ご質問', INQUIRY_MESSAGE_MAX),
});

const SCHEMAS = {
  'job-posting': jobPostingInquiryInput,
  'partner-application': partnerApplicationInput,
} as const;

const ACCEPTED: Record<InquiryKind, string> = {
  'job-posting': 'お問い合わせを受け付けました。',
  'partner-application': 'お申し込みを受け付けました。',
};

/** The form of one kind: every field named, the ones it does not have as null. */
const inquiryForm = (kind: InquiryKind): PublicForm<Omit<InquiryFields, 'kind'>> => ({
  tag: 'inquiry',
  schema: SCHEMAS[kind].transform((data) => ({
    website: null,
    companySize: null,
    plan: null,
    ...data,
  })),
  limits: INQUIRY_LIMITS,
  keep: (db, fields, userId) =>
    db
      .insert(partnerInquiries)
      .values({ kind, ...fields, userId })
      .returning({ createdAt: partnerInquiries.createdAt }),
  toStaff: (staff, fields, post) => inquiryReceived(staff, { kind, ...fields, ...post }),
  toSender: (fields, receivedAt) => inquiryAcknowledged(fields.email, { kind, receivedAt }),
  done: { redirectTo: INQUIRY_SENT_PAGES[kind], message: ACCEPTED[kind] },
});

/** Submits one inquiry of the given kind; the sender is signed in when `user` is given. */
export function submitInquiry(
  kind: InquiryKind,
  deps: PublicFormDeps,
  input: unknown,
  ctx: PublicFormContext,
  user: { id: string } | null,
): Promise<FormResult> {
  return submitPublicForm(deps, inquiryForm(kind), input, ctx, user);
}

export type PartnerInquiry = typeof partnerInquiries.$inferSelect;

export const INQUIRY_PAGE_SIZE = 20;

/** One page of the inquiries, newest first (staff only: the caller checks the role). */
export async function listPartnerInquiries(
  db: Db,
  options: { page?: number; pageSize?: number } = {},
): Promise<{ items: PartnerInquiry[]; total: number; page: number; totalPages: number }> {
  const pageSize = options.pageSize ?? INQUIRY_PAGE_SIZE;
  const [totals] = await db.select({ total: count() }).from(partnerInquiries);
  const total = totals?.total ?? 0;
  const asked = Number.isSafeInteger(options.page) ? options.page! : 1;
  const { page, pageCount: totalPages, offset } = pageWithin(total, asked, pageSize);
  const items = await db
    .select()
    .from(partnerInquiries)
    .orderBy(desc(partnerInquiries.createdAt), desc(partnerInquiries.id))
    .limit(pageSize)
    .offset(offset);
  return { items, total, page, totalPages };
}

const inquiryId = z.uuid();
const inquiryState = z.enum(INQUIRY_STATES);

/**
 * Moves one inquiry to a state (staff only: the caller checks the role). False when there is
 * no such inquiry or the id or state is not one (both may come straight from a form field).
 */
export async function setInquiryState(db: Db, id: string, state: InquiryState): Promise<boolean> {
  if (!inquiryId.safeParse(id).success || !inquiryState.safeParse(state).success) return false;
  const updated = await db
    .update(partnerInquiries)
    .set({ state, updatedAt: sql`now()` })
    .where(eq(partnerInquiries.id, id))
    .returning({ id: partnerInquiries.id });
  return updated.length === 1;
}
