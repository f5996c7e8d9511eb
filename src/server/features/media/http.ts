import 'server-only';
import { AppError } from '@/lib/errors';
import { FORM_KEY } from '@/lib/http/form-flash';
import {
  ALT_MAX_LENGTH,
  ALT_REQUIRED_MESSAGE,
  ALT_TOO_LONG_MESSAGE,
  MEDIA_KINDS,
  KEEP_DUPLICATE,
  MEDIA_KIND_LABELS,
  type MediaErrorAnswer,
  type MediaItem,
  type MediaKind,
  type MediaListAnswer,
  type MediaUploadAnswer,
  displayName,
  duplicateMessage,
  mediaPaths,
} from '@/lib/media/media-shared';
import { z, fieldErrors } from '@/lib/zod';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { type Db, getDb } from '@/server/platform/db/client';
import {
  type AppUser,
  gatedEndpoint,
  userFromHeaders,
  type ViewerOption,
} from '@/server/features/identity';
import { errorAnswer, refusalAnswer } from '@/server/platform/http/error-answer';
import { clippedFields } from '@/server/platform/http/flash-values';
import {
  type FormInput,
  type FormResult,
  formAnswer,
  jsonAnswer,
  notFoundAnswer,
} from '@/server/platform/http/form-endpoint';
import { rawPostViewer } from '@/server/platform/http/raw-post';
import { clientIp } from '@/server/platform/http/request-origin';
import { STAFF_ROLES } from '@/lib/identity/roles';
import type { MediaLimits } from '@/server/platform/storage/media-types';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { getStorage } from '@/server/platform/storage/storage';
import { receiveUpload } from '@/server/platform/storage/upload';
import { deleteMedia, findMediaByHash, listMedia, registerMedia, updateMediaAlt } from './library';
import { doneAnswer } from '@/server/platform/http/done-flash';

/**
 * The route handlers of the media library (src/app/api/admin/media/**): upload, list (JSON,
 * for the picker), alt text, delete. Staff only (editors and admins): anyone else, signed in
 * or not, gets the bare 404 the pages give, before their input is looked at. Deletes are
 * audited (`media-deleted`); uploads and alt text are editorial, not security-relevant.
 * A plain post (no JavaScript) gets a 303 with a one-time message, as the other admin forms.
 */

export const MEDIA_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const UPLOAD_FORM_KEY = 'upload';
export const ALT_FORM_KEY = 'alt';
export const DELETE_FORM_KEY = 'delete';

export const DELETE_CONFIRM_MESSAGE =
  '削除するには「このファイルを削除する」にチェックを入れてください。';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Alt text: one line (runs of white space become one space), no control characters. */
export const altText = z
  .string({ error: '代替テキストを文字で入力してください。' })
  .refine((v) => !CONTROL.test(v) && v.isWellFormed(), { error: '使えない文字が含まれています。' })
  .transform((v) => v.replace(/\s+/g, ' ').trim())
  .pipe(z.string().max(ALT_MAX_LENGTH, { error: ALT_TOO_LONG_MESSAGE }));

const altInput = z.object({ alt: altText });
const deleteInput = z.object({
  confirm: z.literal('yes', { error: DELETE_CONFIRM_MESSAGE }),
});

const pageNumber = z
  .string()
  .regex(/^[0-9]{1,6}$/, { error: 'ページ番号は半角数字で指定してください。' })
  .transform(Number)
  .pipe(z.number().int().min(1, { error: 'ページ番号は1以上で指定してください。' }));

export const listInput = z.object({
  q: z
    .string()
    .trim()
    .max(100, { error: '検索語は100文字以内で入力してください。' })
    .optional()
    .default(''),
  kind: z
    .enum(['', ...MEDIA_KINDS] as ['', ...MediaKind[]], {
      error: '種類は「画像」「音声」「動画」から選んでください。',
    })
    .optional()
    .default(''),
  page: pageNumber.optional().default(1),
  url: z
    .string()
    .max(500, { error: 'ファイルの URL が長すぎます。' })
    .regex(/^\/(?:uploads|media)\//, { error: 'ライブラリのファイルの URL を指定してください。' })
    .optional(),
});

export type MediaHttpOptions = ViewerOption & {
  /** Tests: the database, the storage, the size limits. */
  db?: () => Promise<Db>;
  storage?: () => MediaStorage;
  limits?: MediaLimits;
};

const isStaffUser = (user: AppUser | null): user is AppUser =>
  !!user && STAFF_ROLES.includes(user.role);

const invalid = (errors: Record<string, string>, message?: string): FormResult => ({
  ok: false,
  status: 400,
  message: message ?? '入力内容を確認してください。',
  fieldErrors: errors,
});

const succeeded = doneAnswer;

const faultMessage = 'アップロードを保存できませんでした。時間をおいてもう一度お試しください。';

const flashValues = clippedFields({ [FORM_KEY]: 20, alt: ALT_MAX_LENGTH });

/** The upload's bytes are in the library already, and the editor did not ask to keep both. */
class DuplicateUpload extends Error {
  constructor(readonly existing: MediaItem) {
    super(duplicateMessage(existing));
    this.name = 'DuplicateUpload';
  }
}

/** A refusal of the upload, pinned to the field it is about. */
class UploadFieldError extends AppError {
  constructor(field: 'alt' | 'file', message: string) {
    super(message, { status: 400, code: `upload-${field}`, field });
    this.name = 'UploadFieldError';
  }
}

export function mediaHandlers(options: MediaHttpOptions = {}) {
  const viewer = options.viewer ?? userFromHeaders;
  const database = options.db ?? getDb;
  const storage = options.storage ?? getStorage;
  const staffOf = async (request: Request) => {
    const user = await viewer(request.headers);
    return isStaffUser(user) ? user : null;
  };
  const testing = {
    ...(options.viewer ? { viewer: options.viewer } : {}),
    ...(options.db ? { db: options.db } : {}),
  };

  /**
   * POST /api/admin/media: multipart `alt` (before the file) and `file`. Streamed and checked
   * by the content API's upload code; an image without alt text is refused before it is
   * stored. Not through endpoint(): its body ceiling is for forms, not 500 MB of video.
   */
  async function upload(request: Request): Promise<Response> {
    const user = await rawPostViewer(request, staffOf);
    if (user instanceof Response) return user;

    let alt = '';
    const refuse = (status: number, field: string, message: string, detail = message) =>
      formAnswer(
        request,
        { ok: false, status, message, fieldErrors: field ? { [field]: detail } : {} },
        { [FORM_KEY]: UPLOAD_FORM_KEY, alt },
        { formPage: mediaPaths.library, signInPage: true },
      );
    const db = await database();
    try {
      const received = await receiveUpload(request, {
        storage: storage(),
        limits: options.limits,
        check: async (media, fields, file) => {
          const parsed = altText.safeParse(fields.alt ?? '');
          if (!parsed.success)
            throw new UploadFieldError('alt', parsed.error.issues[0]?.message ?? '');
          alt = parsed.data;
          // The picker of an audio field asks for audio only, and so on.
          const wanted = MEDIA_KINDS.find((k) => k === fields.kind);
          if (wanted && media.type.kind !== wanted)
            throw new UploadFieldError(
              'file',
              `ここでは${MEDIA_KIND_LABELS[wanted]}のファイルを選んでください（選ばれたファイルは${MEDIA_KIND_LABELS[media.type.kind]}です）。`,
            );
          if (media.type.kind === 'image' && !alt)
            throw new UploadFieldError('alt', ALT_REQUIRED_MESSAGE);
          // The same bytes again: offer the file already there rather than a silent copy.
          if (fields[KEEP_DUPLICATE.name] !== KEEP_DUPLICATE.value) {
            const existing = await findMediaByHash(db, file.contentHash);
            if (existing) throw new DuplicateUpload(existing);
          }
        },
      });
      const media = await registerMedia(db, {
        ...received,
        alt,
        uploadedBy: `user:${user.id}`,
      });
      const message = `「${displayName(media)}」をアップロードしました。`;
      if ((request.headers.get('accept') ?? '').includes('application/json')) {
        const answer: MediaUploadAnswer = { ok: true, media, message };
        return jsonAnswer(201, answer);
      }
      const done = succeeded(message, mediaPaths.item(media.id));
      const headers = new Headers({ location: done.redirectTo! });
      for (const cookie of done.setCookies ?? []) headers.append('set-cookie', cookie);
      return new Response(null, { status: 303, headers });
    } catch (error) {
      if (error instanceof DuplicateUpload) {
        if ((request.headers.get('accept') ?? '').includes('application/json')) {
          const answer: MediaErrorAnswer = {
            ok: false,
            message: error.message,
            duplicate: error.existing,
          };
          return jsonAnswer(409, answer);
        }
        // Without JavaScript: the form page says where the file is and offers to keep both.
        return refuse(
          409,
          KEEP_DUPLICATE.name,
          error.message,
          `${error.message}（${mediaPaths.item(error.existing.id)}）そのファイルを使うか、もう一度アップロードする場合は「同じ内容でもアップロードする」にチェックを入れてファイルを選び直してください。`,
        );
      }
      // A refusal is about the file (its type, its size, the multipart body) unless it names
      // its field (the alt text); a fault is about no field.
      const refusal = refusalAnswer(error);
      const failure =
        refusal ?? errorAnswer(error, { log: '[admin-media-upload] failed:', faultMessage });
      return refuse(failure.status, refusal ? (refusal.field ?? 'file') : '', failure.message);
    }
  }

  /** GET /api/admin/media?q=&kind=&page= → MediaListAnswer (the picker's list). */
  const list = gatedEndpoint(
    { name: 'admin-media-list', method: 'GET', answers: 'json', ...testing },
    isStaffUser,
    async ({ input }) => {
      const parsed = listInput.safeParse(input);
      if (!parsed.success)
        return invalid(fieldErrors(parsed.error), '検索条件を確認してください。');
      const page = await listMedia(await database(), parsed.data);
      const answer: MediaListAnswer = { ok: true, ...page };
      return jsonAnswer(200, answer);
    },
  );

  /**
   * A post about one file (/api/admin/media/{id}/…): staff only, and a malformed id is the same
   * bare 404, before the input is looked at; a plain post goes back to the file's page.
   */
  const itemRoute =
    (
      name: string,
      maxBytes: number,
      handle: (
        id: string,
        ctx: { raw: FormInput; user: AppUser; request: Request; ip: string | null },
      ) => Promise<FormResult | Response>,
    ) =>
    (request: Request, id: string) =>
      gatedEndpoint(
        {
          name,
          maxBytes,
          formPage: MEDIA_ID.test(id) ? mediaPaths.item(id) : mediaPaths.library,
          flashValues,
          ...testing,
        },
        (user) => isStaffUser(user) && MEDIA_ID.test(id),
        ({ input, user, request: req, ip }) => handle(id, { raw: input, user, request: req, ip }),
      )(request);

  /** POST /api/admin/media/{id}/alt: { alt }. */
  const alt = itemRoute('admin-media-alt', 8 * 1024, async (id, { raw, request: req }) => {
    const parsed = altInput.safeParse(raw);
    if (!parsed.success) return invalid(fieldErrors(parsed.error));
    const updated = await updateMediaAlt(await database(), id, parsed.data.alt);
    if (!updated.ok && updated.reason === 'not-found') return notFoundAnswer(req);
    if (!updated.ok) return invalid({ alt: updated.message });
    return succeeded('代替テキストを保存しました。', mediaPaths.item(id));
  });

  /** POST /api/admin/media/{id}/delete: { confirm: 'yes' }; refused while the file is used. */
  const remove = itemRoute(
    'admin-media-delete',
    4 * 1024,
    async (id, { raw, user, request: req, ip }) => {
      const parsed = deleteInput.safeParse(raw);
      if (!parsed.success) return invalid(fieldErrors(parsed.error), DELETE_CONFIRM_MESSAGE);
      const db = await database();
      const deleted = await deleteMedia(db, storage(), id);
      if (!deleted.ok && deleted.reason === 'not-found') return notFoundAnswer(req);
      if (!deleted.ok)
        return {
          ok: false,
          status: 409,
          message: deleted.message,
          fieldErrors: { confirm: deleted.message },
        };
      const { media } = deleted;
      await recordAudit(db, {
        actor: `user:${user.id}`,
        action: 'media-deleted',
        target: `media:${media.id}`,
        ip: ip ?? clientIp(req.headers),
        detail: {
          url: media.url,
          filename: media.filename,
          kind: media.kind,
          fileSize: media.fileSize,
        },
      });
      return succeeded(`「${displayName(media)}」を削除しました。`, mediaPaths.library);
    },
  );

  return { upload, list, alt, remove };
}

export const mediaRoutes = mediaHandlers();
