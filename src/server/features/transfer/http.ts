import 'server-only';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { TRANSFER_PAGE, isRunning } from '@/lib/transfer/status';
import { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { invalidInput } from '@/server/platform/forms/submit';
import {
  gatedEndpoint,
  isAdmin,
  userFromHeaders,
  type ViewerOption,
} from '@/server/features/identity';
import { errorAnswer, failedResult, refusalAnswer } from '@/server/platform/http/error-answer';
import {
  type FormResult,
  formAnswer,
  jsonAnswer,
  notFoundAnswer,
} from '@/server/platform/http/form-endpoint';
import { rawPostViewer } from '@/server/platform/http/raw-post';
import { clientIp } from '@/server/platform/http/request-origin';
import { MultipartForm, type MultipartLimits } from '@/server/platform/storage/multipart';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { getStorage } from '@/server/platform/storage/storage';
import { transferTempDir } from './export';
import { contentInventory, notEmptyMessage } from './inventory';
import type { MicroCmsClientOptions } from './microcms/client';
import { normalizeBaseUrl } from './microcms/client';
import { BUSY_MESSAGE, currentTransfer } from './progress';
import {
  type ArchiveImportRun,
  exportWithAudit,
  runArchiveImport,
  startMicroCmsImport,
} from './service';
import { fileStampJa } from '@/lib/format';

/**
 * The route handlers of /admin/transfer, under /api/admin/transfer/**: the export download,
 * the archive upload, the start of a microCMS import and the job's status. Admins only:
 * anyone else, editors included, gets the bare 404 the page gives, before anything they sent
 * is read. Posts follow the form protocol (a 303 back to the page without JavaScript, JSON
 * with a real status for fetch).
 */

export type TransferHttpOptions = ViewerOption & {
  /** Tests: the database, the storage, the microCMS client's pace. */
  db?: () => Promise<Db>;
  storage?: () => MediaStorage;
  microCmsClient?: Omit<MicroCmsClientOptions, 'baseUrl' | 'apiKey'>;
};

export const ARCHIVE_FORM = 'archive';
export const MICROCMS_FORM = 'microcms';

/** What an upload may be: a publisher's whole media library (videos up to 500 MB each). */
export const MAX_ARCHIVE_BYTES = 20 * 1024 * 1024 * 1024;
const MAX_SMALL_FIELD_BYTES = 8 * 1024;
/** The archive and its confirmation box; anything more is not this form. */
const ARCHIVE_FORM_LIMITS: MultipartLimits = {
  fileBytes: MAX_ARCHIVE_BYTES,
  files: 1,
  fields: 10,
  fieldBytes: MAX_SMALL_FIELD_BYTES,
  parts: 11,
};

export const CONFIRM_MESSAGE = '取り込み先が空であることを確認し、チェックを入れてください。';

const confirmed = (value: unknown) =>
  value === true || value === 'on' || value === '1' || value === 'true';

const microCmsInput = z.object({
  baseUrl: z
    .string({ error: 'API の URL を入力してください。' })
    .trim()
    .min(1, { error: 'API の URL を入力してください。' })
    .max(300, { error: 'API の URL が長すぎます。' })
    .transform((value, ctx) => {
      const url = normalizeBaseUrl(value);
      if (!url) {
        ctx.addIssue({
          code: 'custom',
          message:
            'https://<サービスID>.microcms.io/api/v1 の形で入力してください（https のみ。クエリや # は付けません）。',
        });
        return z.NEVER;
      }
      return url;
    }),
  apiKey: z
    .string({ error: 'API キーを入力してください。' })
    .trim()
    .min(1, { error: 'API キーを入力してください。' })
    .max(200, { error: 'API キーが長すぎます。' })
    .regex(/^[\x21-\x7e]+$/, { error: 'API キーに使えない文字が含まれています。' }),
  confirm: z.unknown().refine(confirmed, { error: CONFIRM_MESSAGE }),
});

/**
 * The job's outcome as a form answer: to the page (where the outcome shows), or the error with
 * the refusal's status (409 for content already here, 400 for the archive); an unexpected
 * failure, whose message says so, stays a 400 as the job's other failures.
 */
function outcomeOf({ status, refusal }: ArchiveImportRun): FormResult {
  if (status.phase === 'failed')
    return {
      ok: false,
      status: refusal?.status ?? 400,
      message: status.error ?? '取り込めませんでした。',
    };
  return { ok: true, redirectTo: `${TRANSFER_PAGE}#transfer-status`, message: '取り込みました。' };
}

export function transferHandlers(options: TransferHttpOptions = {}) {
  const viewerOf = options.viewer ?? userFromHeaders;
  const database = options.db ?? getDb;
  const storageOf = options.storage ?? getStorage;
  const adminOf = async (request: Request) => {
    const user = await viewerOf(request.headers);
    return user?.role === 'admin' ? user : null;
  };

  return {
    /** GET /api/admin/transfer/export: the whole archive, as a download. */
    async exportArchive(request: Request): Promise<Response> {
      const admin = await adminOf(request);
      if (!admin) return notFoundAnswer(request);
      try {
        const prepared = await exportWithAudit(await database(), storageOf(), {
          actor: `user:${admin.id}`,
          ip: clientIp(request.headers),
        });
        const name = `axis-content-${fileStampJa(new Date(prepared.manifest.createdAt))}.tar.gz`;
        return new Response(Readable.toWeb(prepared.stream) as ReadableStream<Uint8Array>, {
          status: 200,
          headers: {
            'content-type': 'application/gzip',
            'content-disposition': `attachment; filename="${name}"`,
            'cache-control': 'private, no-store',
            'x-content-type-options': 'nosniff',
          },
        });
      } catch (error) {
        const failure = errorAnswer(error, {
          log: '[transfer] export failed:',
          faultMessage: '書き出しに失敗しました。時間をおいてもう一度お試しください。',
        });
        return jsonAnswer(failure.status, { ok: false, message: failure.message });
      }
    },

    /** POST /api/admin/transfer/import (multipart: archive, confirm): streamed to a temporary file. */
    async importArchive(request: Request): Promise<Response> {
      const admin = await rawPostViewer(request, adminOf);
      if (admin instanceof Response) return admin;
      const typed = { formKey: ARCHIVE_FORM };
      const answer = (result: FormResult) =>
        formAnswer(request, result, typed, { formPage: TRANSFER_PAGE });
      const invalid = (fieldErrors: Record<string, string>, status: 400 | 413 = 400) =>
        answer({ ok: false, status, message: '入力内容を確認してください。', fieldErrors });

      // Refused before hundreds of MB are received for nothing.
      const early = isRunning(currentTransfer())
        ? BUSY_MESSAGE
        : notEmptyMessage(await contentInventory(await database()));
      if (early) {
        await request.body?.cancel().catch(() => undefined);
        return answer({ ok: false, status: 409, message: early });
      }

      if (Number(request.headers.get('content-length') ?? 0) > MAX_ARCHIVE_BYTES) {
        await request.body?.cancel().catch(() => undefined);
        return invalid({ archive: 'アーカイブが大きすぎます (20 GB まで)。' }, 413);
      }
      const temp = path.join(await transferTempDir(), `upload-${randomUUID()}.part`);
      const form = MultipartForm.open(request, ARCHIVE_FORM_LIMITS);
      if (!form) return invalid({ archive: '取り込むアーカイブ (.tar.gz) を選んでください。' });
      try {
        let confirm: string | null = null;
        let filename = '';
        let size = 0;
        try {
          for (let part = await form.next(); part; part = await form.next()) {
            if (part.kind === 'field') {
              if (part.name === 'confirm') confirm = part.value;
              continue;
            }
            if (part.name !== 'archive') continue; // another file: skipped unread
            filename = part.filename.slice(0, 200) || 'archive.tar.gz';
            const handle = await fs.open(temp, 'wx', 0o600);
            try {
              for await (const chunk of part.body) {
                size += chunk.length;
                if (size > MAX_ARCHIVE_BYTES)
                  return invalid({ archive: 'アーカイブが大きすぎます (20 GB まで)。' }, 413);
                await handle.write(chunk);
              }
            } finally {
              await handle.close();
            }
          }
        } catch (error) {
          // The multipart body refused (MultipartError): about the archive field.
          const refusal = refusalAnswer(error);
          if (!refusal) throw error;
          return invalid({ archive: `送信内容を読み取れませんでした: ${refusal.message}` });
        } finally {
          await form.close();
        }
        const errors: Record<string, string> = {};
        if (size === 0) errors.archive = '取り込むアーカイブ (.tar.gz) を選んでください。';
        if (!confirmed(confirm)) errors.confirm = CONFIRM_MESSAGE;
        if (Object.keys(errors).length) return invalid(errors);

        const run = await runArchiveImport(await database(), storageOf(), createReadStream(temp), {
          actor: `user:${admin.id}`,
          ip: clientIp(request.headers),
          filename,
        });
        return answer(outcomeOf(run));
      } catch (error) {
        // A TransferError (another import running: 409) answers as itself.
        return answer(
          failedResult(
            errorAnswer(error, {
              log: '[transfer] archive upload failed:',
              faultMessage: '取り込みに失敗しました。時間をおいてもう一度お試しください。',
            }),
          ),
        );
      } finally {
        await fs.rm(temp, { force: true });
      }
    },

    /** POST /api/admin/transfer/microcms (baseUrl, apiKey, confirm): starts the import job. */
    importMicroCms: gatedEndpoint(
      {
        name: 'admin-transfer-microcms',
        maxBytes: 8 * 1024,
        formPage: TRANSFER_PAGE,
        // The key never goes back in the one-time message.
        flashValues: (raw) => ({
          formKey: MICROCMS_FORM,
          ...(typeof raw.baseUrl === 'string' ? { baseUrl: raw.baseUrl.slice(0, 300) } : {}),
        }),
        ...(options.viewer ? { viewer: options.viewer } : {}),
      },
      isAdmin,
      async ({ input, user, ip }) => {
        const parsed = microCmsInput.safeParse(input);
        if (!parsed.success) return invalidInput(parsed.error);
        const db = await database();
        const refusal = notEmptyMessage(await contentInventory(db));
        if (refusal) return { ok: false, status: 409, message: refusal };
        // Another import running throws a TransferError (409), which endpoint() answers.
        startMicroCmsImport(
          db,
          storageOf(),
          {
            baseUrl: parsed.data.baseUrl,
            apiKey: parsed.data.apiKey,
            client: options.microCmsClient,
          },
          { actor: `user:${user.id}`, ip },
        );
        return {
          ok: true,
          redirectTo: `${TRANSFER_PAGE}#transfer-status`,
          message: `${new URL(parsed.data.baseUrl).host} からの取り込みを始めました。`,
        };
      },
    ),

    /** GET /api/admin/transfer/status: { status } of the current or last import. */
    async status(request: Request): Promise<Response> {
      if (!(await adminOf(request))) return notFoundAnswer(request);
      return jsonAnswer(200, { status: currentTransfer() });
    },
  };
}

export const transferRoutes = transferHandlers();
