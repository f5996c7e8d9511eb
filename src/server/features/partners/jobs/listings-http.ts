import 'server-only';
import { type PartnerActor, partnerOfWriter } from '@/server/features/partners/partner-access';
import {
  type AppUser,
  endpoint,
  type EndpointContext,
  type ViewerOption,
} from '@/server/features/identity';
import { type FormInput, type FormResult, formAnswer } from '@/server/platform/http/form-endpoint';
import { partnerActorFor } from '@/server/features/partners/actor';
import { LISTING_FIELD_NAMES, parseListingFields } from './listing-input';
import { type ListingDeps, closeListing, getListing, listingDeps, saveListing } from './listings';

/**
 * POST /api/jobs/listings (a new listing) and POST /api/jobs/listings/{id}: the listing form of
 * /jobs/post. The partner is always the one the signed-in member writes for (never a form
 * field); a listing of any other partner, a non-partner and staff (who review, not write) all
 * get the same 404 as an id that does not exist. Staff may only end a live listing (`close`),
 * for the listing's own partner.
 *
 * Losing what was typed: a submit that fails on completeness or on the contract first saves
 * the draft (the fields are valid), so the page comes back from the database with nothing
 * lost. Input that breaks a field rule writes nothing (a half-valid listing is never saved), so
 * what was typed goes back in the one-time cookie (under 4 KB): the short fields whole, 仕事内容 with
 * what room is left; the form says so when a field came back cut (`CLIPPED_FIELDS`).
 */

export const LISTING_FORM_INTENTS = ['save', 'preview', 'submit', 'close'] as const;
export type ListingFormIntent = (typeof LISTING_FORM_INTENTS)[number];

/** The flash value naming the fields that came back cut. */
export const CLIPPED_FIELDS = 'clippedFields';
/** The checkbox the close form must have ticked (no JavaScript confirm dialog needed). */
export const CONFIRM_CLOSE = 'confirmClose';

/** ?done= on /jobs/post after a plain post went through: what the page confirms. */
export const DONE_MESSAGES = {
  saved: '下書きを保存しました。',
  submitted: '審査に提出しました。編集部の審査が終わるまで、しばらくお待ちください。',
  closed: '募集を終了しました。求人一覧と検索結果から外れました。',
  unchanged: '変更点がないため、保存しませんでした。',
} as const;
export type DoneKey = keyof typeof DONE_MESSAGES;

// 10,000 characters of Japanese percent-encoded by a plain form post is about 90 KB.
const MAX_BYTES = 192 * 1024;

/**
 * JSON bytes the flash may take: base64url makes it 4/3 larger, and a browser drops a cookie
 * past 4,096 bytes (name and value) whole, messages included. Less the flash's own keys.
 */
const FLASH_JSON_BUDGET = 2_850;

/** Each field's most bytes in the flash, smallest and most often wrong first; 仕事内容 last. */
const FLASH_FIELD_CAPS: readonly [string, number][] = [
  ['employmentType', 60],
  ['occupation', 60],
  ['prefecture', 30],
  ['remote', 30],
  ['salaryUnit', 20],
  ['salaryMin', 40],
  ['salaryMax', 40],
  ['closingDate', 30],
  ['title', 300],
  ['applyUrl', 500],
  ['applyEmail', 254],
  ['hours', 600],
  ['location', 600],
  ['description', 900],
  ['details', 30_000],
];

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * What was typed, for the one-time cookie: within the budget left after the message and field
 * errors (`reserved` JSON bytes), each field at most its cap, in FLASH_FIELD_CAPS's order.
 */
export function listingFlashValues(raw: FormInput, reserved = 600): FormInput {
  let room = FLASH_JSON_BUDGET - reserved - 80; // 80: the clipped-fields list itself
  const out: FormInput = {};
  const clipped: string[] = [];
  for (const [name, cap] of FLASH_FIELD_CAPS) {
    const typed = raw[name];
    if (typeof typed !== 'string' || typed === '') continue;
    // A browser sends line breaks as CRLF; the textarea is as happy with LF, at half the room.
    const value = typed.replace(/\r\n?/g, '\n');
    const overhead = jsonBytes(name) + 4; // "name":"…", and a comma
    const kept = clipJson(value, Math.min(cap, room - overhead));
    if (kept.length < value.length) clipped.push(name);
    if (kept === '') continue;
    out[name] = kept;
    room -= jsonBytes(kept) - 2 + overhead;
  }
  if (clipped.length > 0) out[CLIPPED_FIELDS] = clipped.join(',');
  return out;
}

/** The start of `text` whose JSON string takes at most maxBytes (escapes and UTF-8 counted). */
function clipJson(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (jsonBytes(text) - 2 <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += jsonBytes(char) - 2;
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

export type ListingHttpOptions = ViewerOption & {
  /** Tests: the listings' database, content writer and clock. */
  deps?: () => Promise<ListingDeps>;
};

const NOT_FOUND: FormResult = { ok: false, status: 404, message: '求人が見つかりません。' };

const intentOf = (value: unknown): ListingFormIntent | null =>
  LISTING_FORM_INTENTS.find((intent) => intent === value) ?? null;

const listingIdOf = (result: FormResult): string | null => {
  if (!result.ok || !result.redirectTo) return null;
  return new URL(result.redirectTo, 'http://site.invalid').searchParams.get('listing');
};

export const editPath = (id: string, done?: DoneKey) =>
  `/jobs/post?listing=${encodeURIComponent(id)}${done ? `&done=${done}` : ''}`;

/**
 * A plain post's answer sent to `page` whatever its Referer said (a new listing saved as a
 * draft has its own page now), with the fields' own flash; JSON for fetch as usual.
 */
function answerAt(
  request: Request,
  result: FormResult,
  page: string,
  values: FormInput = {},
): Response {
  const headers = new Headers(request.headers);
  headers.delete('referer');
  return formAnswer(new Request(request.url, { headers }), result, values, {
    formPage: page,
    signInPage: true,
  });
}

/** The form's fields with what was typed, as the answer of a failed save carries them back. */
function failedSave(request: Request, result: FormResult, raw: FormInput, page: string) {
  if (result.ok) return result;
  const reserved = jsonBytes({ message: result.message, fieldErrors: result.fieldErrors ?? {} });
  return answerAt(request, result, page, listingFlashValues(raw, reserved));
}

/**
 * Whose listings the actor writes here: the member's own partner (staff review and end
 * listings from /biz/axis-admin, not here). Null: the answer is 404.
 */
async function partnerFor(
  deps: ListingDeps,
  actor: PartnerActor,
  id: string | null,
): Promise<string | null> {
  const partnerId = partnerOfWriter(actor);
  if (partnerId === null || id === null) return partnerId;
  const listing = await getListing(deps.db, id);
  return listing?.partnerId === partnerId ? partnerId : null;
}

async function handle(
  id: string | null,
  deps: ListingDeps,
  { raw, user, request, ip }: EndpointContext<FormInput, AppUser>,
): Promise<FormResult | Response> {
  const actor = await partnerActorFor(deps.db, user);
  const intent = intentOf(raw.intent);
  const partnerId = await partnerFor(deps, actor, id);
  // Before anything about the input: nothing tells an outsider whether the listing exists.
  if (partnerId === null) return NOT_FOUND;
  const who = { userId: user.id, ip };
  const formPage = id === null ? '/jobs/post' : editPath(id);
  if (intent === null)
    return { ok: false, status: 400, message: '操作を選んでから送信してください。' };

  if (intent === 'close') {
    if (id === null) return NOT_FOUND;
    if (!raw[CONFIRM_CLOSE])
      return {
        ok: false,
        status: 400,
        message: '募集を終了するには、確認のチェックを入れてください。',
        fieldErrors: {
          [CONFIRM_CLOSE]: '「募集を終了することを確認しました」にチェックを入れてください。',
        },
      };
    const closed = await closeListing(deps, partnerId, id, raw, who);
    return closed.ok ? { ...closed, redirectTo: editPath(id, 'closed') } : closed;
  }

  // Looking at the preview of a listing in review, or saving it unchanged, must not take it
  // out of review: only a change makes a new draft.
  if (id !== null && intent !== 'submit' && (await isUnchanged(deps, id, raw)))
    return {
      ok: true,
      redirectTo:
        intent === 'preview'
          ? `/jobs/preview/${encodeURIComponent(id)}`
          : editPath(id, 'unchanged'),
    };

  const saved = await saveListing(deps, partnerId, id, raw, 'save', who);
  const savedId = listingIdOf(saved);
  if (!saved.ok || savedId === null) return failedSave(request, saved, raw, formPage);
  if (intent === 'save') return { ...saved, redirectTo: editPath(savedId, 'saved') };
  if (intent === 'preview')
    return { ...saved, redirectTo: `/jobs/preview/${encodeURIComponent(savedId)}` };

  // Submit: the draft is saved; now the review's own checks, on the stored revision.
  const stored = await getListing(deps.db, savedId);
  const submitted = await saveListing(
    deps,
    partnerId,
    savedId,
    { ...raw, revision: String(stored?.revision ?? 0) },
    'submit',
    who,
  );
  if (submitted.ok) return { ...submitted, redirectTo: editPath(savedId, 'submitted') };
  const refused: FormResult = {
    ...submitted,
    message: `下書きを保存しました。${submitted.message ?? ''}`,
  };
  // The page reads the saved draft back: no typed values needed.
  return answerAt(request, refused, editPath(savedId));
}

/** Whether the posted fields are the stored ones (the form sent back as it was shown). */
async function isUnchanged(deps: ListingDeps, id: string, raw: FormInput): Promise<boolean> {
  const listing = await getListing(deps.db, id);
  const parsed = parseListingFields(raw);
  return (
    listing !== null &&
    parsed.ok &&
    LISTING_FIELD_NAMES.every((name) => parsed.fields[name] === listing.fields[name])
  );
}

/** The handler of one listing's form posts (`id` null: a new listing). */
export function listingPostHandler(
  id: string | null,
  options: ListingHttpOptions = {},
): (request: Request) => Promise<Response> {
  return endpoint(
    {
      name: id === null ? 'job-listing-new' : 'job-listing',
      maxBytes: MAX_BYTES,
      auth: 'user',
      formPage: id === null ? '/jobs/post' : editPath(id),
      flashValues: (raw) => listingFlashValues(raw),
      viewer: options.viewer,
    },
    async (ctx) => handle(id, await (options.deps ?? listingDeps)(), ctx),
  );
}
