import 'server-only';
import { randomBytes } from 'node:crypto';
import { optionalDay, requiredText, z, fieldErrors } from '@/lib/zod';
import type { PartnerContract } from '@/server/features/partners/partner-access';
import { type Actor, recordActorAction } from '@/server/platform/audit/audit-log';
import {
  type ContentClient,
  contentWriter,
  isContentRequestError,
  partnerSchema,
  siteContent,
} from '@/server/features/content';
import { type Db, getDb } from '@/server/platform/db/client';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import {
  type StoredImage,
  forgetStoredImage,
  receiveFormImage,
} from '@/server/platform/storage/store-image';
import type { ContractState } from '@/lib/partners/contract-state';
import { NO_CONTRACT, contractState, contractsOf, memberCountsOf, saveContract } from './contracts';
import { refusedFields } from '@/server/platform/forms/submit';

/**
 * Partner companies (docs/decisions/010-partners-and-job-listings.md): the public profile (name,
 * description, logo, website) is the `partners` item of the content service, which job pages read;
 * the contract (start, end, listing quota) is ours (partner_contracts). Staff create and edit both;
 * a partner's members edit the profile's description, logo and website. Who may call what is
 * decided by the caller through src/server/features/partners/partner-access.ts.
 */

export type PartnerDeps = { db: Db; content: ContentClient; writer: () => ContentClient };

export async function partnerDeps(): Promise<PartnerDeps> {
  return { db: await getDb(), content: siteContent(), writer: contentWriter };
}

export type PartnerSummary = {
  id: string;
  name: string;
  logo: StoredImage | null;
  website: string;
  contract: PartnerContract;
  contractState: ContractState;
  memberCount: number;
};

export type PartnerDetail = PartnerSummary & { description: string };

export const PARTNERS_PAGE_SIZE = 20;
const SYSTEM_FIELDS = 'id,createdAt,updatedAt,publishedAt,revisedAt';
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

const partnerItem = partnerSchema.pick({
  id: true,
  name: true,
  description: true,
  logo: true,
  website: true,
});
type PartnerItem = z.infer<typeof partnerItem>;

async function summarise(db: Db, items: PartnerItem[], now: Date): Promise<PartnerDetail[]> {
  const ids = items.map((i) => i.id);
  const [contracts, members] = await Promise.all([contractsOf(db, ids), memberCountsOf(db, ids)]);
  return items.map((item) => {
    const contract = contracts.get(item.id) ?? NO_CONTRACT;
    return {
      id: item.id,
      name: item.name,
      description: item.description ?? '',
      logo: item.logo ?? null,
      website: item.website ?? '',
      contract,
      contractState: contractState(contract, now),
      memberCount: members.get(item.id) ?? 0,
    };
  });
}

/** Partners for staff, newest first, found by `q` in their name or description. */
export async function listPartners(
  deps: PartnerDeps,
  query: { q?: string; page?: number },
  now: Date = new Date(),
): Promise<{ items: PartnerSummary[]; totalCount: number; page: number; pageCount: number }> {
  const page = Math.max(1, Math.floor(query.page ?? 1));
  const q = query.q?.trim() ?? '';
  const answer = await deps.content.getList({
    endpoint: 'partners',
    queries: {
      limit: PARTNERS_PAGE_SIZE,
      offset: (page - 1) * PARTNERS_PAGE_SIZE,
      orders: '-createdAt',
      fields: `${SYSTEM_FIELDS},name,description,logo,website`,
      ...(q ? { q } : {}),
    },
    schema: partnerItem,
  });
  return {
    items: await summarise(deps.db, answer.contents, now),
    totalCount: answer.totalCount,
    page,
    pageCount: Math.max(1, Math.ceil(answer.totalCount / PARTNERS_PAGE_SIZE)),
  };
}

/** One partner, or null when there is no such published partner. */
export async function getPartner(
  deps: PartnerDeps,
  id: string,
  now: Date = new Date(),
): Promise<PartnerDetail | null> {
  if (!PARTNER_ID.test(id)) return null;
  try {
    const item = await deps.content.getListDetail({
      endpoint: 'partners',
      contentId: id,
      queries: { depth: 0 },
      schema: partnerItem,
    });
    const [detail] = await summarise(deps.db, [item], now);
    return detail ?? null;
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

/** Every partner's id and name, for the /jobs filter and pickers (a programme has dozens). */
export async function partnerNames(deps: Pick<PartnerDeps, 'content'>) {
  const answer = await deps.content.getList({
    endpoint: 'partners',
    queries: { limit: 100, orders: 'name', fields: `${SYSTEM_FIELDS},name` },
    schema: partnerItem.pick({ id: true, name: true }),
  });
  return answer.contents.map(({ id, name }) => ({ id, name }));
}

export const PARTNER_ID = /^[A-Za-z0-9_-]{1,50}$/;

// --- input ------------------------------------------------------------------------------------

const day = optionalDay('日付');

const website = z
  .string()
  .trim()
  .max(500, { error: 'ウェブサイトは500文字以内で入力してください。' })
  .refine((v) => v === '' || (/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(v) && URL.canParse(v)), {
    error: 'ウェブサイトは https:// から始まるアドレスを入力してください。',
  })
  .default('');

// Browsers send a textarea's line breaks as CRLF: kept as LF, as everywhere else.
const description = z
  .string()
  .trim()
  .transform((v) => v.replace(/\r\n?/g, '\n'))
  .pipe(z.string().max(1000, { error: '紹介文は1,000文字以内で入力してください。' }))
  .default('');

/** What a partner's members may change of its profile. */
export const partnerProfileInput = z.object({ description, website });

/** What staff set when creating or editing a partner. */
export const partnerInput = z
  .object({
    name: requiredText('企業名', 200),
    description,
    website,
    contractStart: day.refine((v) => v !== '', { error: '契約開始日を入力してください。' }),
    contractEnd: day.default(''),
    listingQuota: z
      .string()
      .trim()
      .default('')
      .transform((v) => v.normalize('NFKC'))
      .refine((v) => v === '' || (/^\d{1,4}$/.test(v) && Number(v) <= 1000), {
        error: '掲載枠は0〜1000の半角数字で入力してください (空欄は上限なし)。',
      }),
  })
  .superRefine((v, ctx) => {
    if (v.contractEnd !== '' && v.contractStart !== '' && v.contractEnd < v.contractStart)
      ctx.addIssue({
        code: 'custom',
        path: ['contractEnd'],
        message: '契約終了日は開始日以降の日付を入力してください。',
      });
  });

/** The logo posted with a form, stored; undefined when none was chosen. */
async function receiveLogo(
  logo: unknown,
): Promise<{ ok: true; logo: StoredImage | undefined } | { ok: false; result: FormResult }> {
  if (!(logo instanceof File) || logo.size === 0) return { ok: true, logo: undefined };
  const received = await receiveFormImage(logo, LOGO_MAX_BYTES, 'logo');
  return received.ok ? { ok: true, logo: received.image } : received;
}

/** A partner form's fields and stored logo, or the answer that turns the form back. */
async function readPartnerForm<T>(
  schema: z.ZodType<T>,
  input: Record<string, unknown>,
): Promise<
  { ok: true; data: T; logo: StoredImage | undefined } | { ok: false; result: FormResult }
> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, result: refusedFields(fieldErrors(parsed.error)) };
  const received = await receiveLogo(input.logo);
  if (!received.ok) return received;
  return { ok: true, data: parsed.data, logo: received.logo };
}

/** An existing partner and its edit form, or the answer that turns the form back (404 for none). */
async function readPartnerEdit<T>(
  deps: PartnerDeps,
  id: string,
  schema: z.ZodType<T>,
  input: Record<string, unknown>,
) {
  const current = await getPartner(deps, id);
  if (!current) return { ok: false as const, result: partnerNotFound };
  const form = await readPartnerForm(schema, input);
  return form.ok ? { ...form, current } : form;
}

/** Profile fields with the logo when a new one came (otherwise the stored one stays). */
const withLogo = <T extends object>(content: T, logo: StoredImage | undefined) => ({
  ...content,
  ...(logo ? { logo } : {}),
});

/** Writes an existing partner's profile; a replaced logo's file is then forgotten. */
async function saveProfile(
  deps: PartnerDeps,
  current: PartnerDetail,
  content: object,
  logo: StoredImage | undefined,
): Promise<void> {
  await deps.writer().update({
    endpoint: 'partners',
    contentId: current.id,
    content: withLogo(content, logo),
  });
  if (logo) await forgetStoredImage(current.logo?.url);
}

export const partnerNotFound: FormResult = {
  ok: false,
  status: 404,
  message: 'パートナー企業が見つかりません。',
};

function contractFrom(v: z.output<typeof partnerInput>): PartnerContract {
  return {
    contractStart: v.contractStart,
    contractEnd: v.contractEnd || null,
    listingQuota: v.listingQuota === '' ? null : Number(v.listingQuota),
  };
}

/** Staff: a new partner, published at once, with its contract. */
export async function createPartner(
  deps: PartnerDeps,
  input: Record<string, unknown>,
  actor: Actor,
): Promise<FormResult> {
  const form = await readPartnerForm(partnerInput, input);
  if (!form.ok) return form.result;
  const id = `partner-${randomBytes(6).toString('hex')}`;
  const { name, description: text, website: site } = form.data;
  await deps.writer().create({
    endpoint: 'partners',
    contentId: id,
    content: withLogo({ name, description: text, website: site }, form.logo),
  });
  const contract = contractFrom(form.data);
  await saveContract(deps.db, id, contract);
  await recordActorAction(deps.db, actor, {
    action: 'partner-created',
    target: `partner:${id}`,
    detail: { name, ...contract },
  });
  return { ok: true, redirectTo: `/biz/axis-admin/${id}`, message: `${name} を登録しました。` };
}

/** Staff: the whole partner (profile and contract). */
export async function updatePartner(
  deps: PartnerDeps,
  id: string,
  input: Record<string, unknown>,
  actor: Actor,
): Promise<FormResult> {
  const form = await readPartnerEdit(deps, id, partnerInput, input);
  if (!form.ok) return form.result;
  const { current } = form;
  const { name, description: text, website: site } = form.data;
  await saveProfile(deps, current, { name, description: text, website: site }, form.logo);
  const contract = contractFrom(form.data);
  await saveContract(deps.db, id, contract);
  if (JSON.stringify(contract) !== JSON.stringify(current.contract)) {
    await recordActorAction(deps.db, actor, {
      action: 'partner-contract-changed',
      target: `partner:${id}`,
      detail: { from: current.contract, to: contract },
    });
  }
  return { ok: true, redirectTo: `/biz/axis-admin/${id}`, message: '保存しました。' };
}

/** A partner's members (or staff): description, website and logo of its profile. */
export async function updatePartnerProfile(
  deps: PartnerDeps,
  id: string,
  input: Record<string, unknown>,
  actor: Actor,
): Promise<FormResult> {
  const form = await readPartnerEdit(deps, id, partnerProfileInput, input);
  if (!form.ok) return form.result;
  await saveProfile(deps, form.current, form.data, form.logo);
  await recordActorAction(deps.db, actor, {
    action: 'partner-profile-changed',
    target: `partner:${id}`,
    detail: { logo: !!form.logo },
  });
  return { ok: true, redirectTo: `/biz/partner-admin/${id}`, message: '企業情報を保存しました。' };
}
