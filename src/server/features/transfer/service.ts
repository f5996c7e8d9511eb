import 'server-only';
import type { Readable } from 'node:stream';
import type { TransferStatus } from '@/lib/transfer/status';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { type ErrorAnswer, errorAnswer, refusalAnswer } from '@/server/platform/http/error-answer';
import { type PreparedExport, prepareExport } from './export';
import { importArchive } from './import-archive';
import type { MicroCmsClientOptions } from './microcms/client';
import { importFromMicroCms } from './microcms/import';
import { beginTransfer, finishTransfer } from './progress';

/**
 * The import and export as the console and the CLI run them: the job state, the audit
 * record (`content-exported`, `content-imported`, with the admin or CLI user as actor and,
 * for microCMS, the host only, never the key) and failures turned into a Japanese message.
 */

export type Who = { actor: string; ip?: string | null };

export const UNEXPECTED_MESSAGE =
  '取り込み中に予期しないエラーが発生しました。何も取り込んでいません。サーバーのログを確認してください。';

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

export async function exportWithAudit(
  db: Db,
  storage: MediaStorage,
  who: Who,
): Promise<PreparedExport> {
  const prepared = await prepareExport(db, storage);
  await recordAudit(db, {
    actor: who.actor,
    action: 'content-exported',
    ip: who.ip ?? null,
    detail: { ...prepared.manifest.counts, missingFiles: prepared.missingFiles.length },
  });
  return prepared;
}

/** What an import brought in (a microCMS import has no versions and no files of its own). */
type Imported = {
  contents: Record<string, number>;
  media: number;
  versions?: number;
  files?: number;
  warnings: string[];
};

/** A finished import: its audit record (where from, and the counts) and the job's outcome. */
async function imported(
  db: Db,
  status: TransferStatus,
  who: Who,
  from: Record<string, string>,
  { contents, media, versions, files, warnings }: Imported,
): Promise<void> {
  await recordAudit(db, {
    actor: who.actor,
    action: 'content-imported',
    ip: who.ip ?? null,
    detail: {
      ...from,
      contents: total(contents),
      endpoints: contents,
      ...(versions === undefined ? {} : { versions }),
      media,
      ...(files === undefined ? {} : { files }),
    },
  });
  finishTransfer(status, {
    ok: true,
    result: { contents, media, versions: versions ?? 0, files: files ?? 0 },
    warnings,
  });
}

/** A failed import's answer: a refusal's own (a TransferError's, say); anything else is logged. */
const failureOf = (error: unknown): ErrorAnswer =>
  errorAnswer(error, { log: '[transfer] import failed:', faultMessage: UNEXPECTED_MESSAGE });

/** The job's state at its end, and what refused it, if it was refused. */
export type ArchiveImportRun = { status: TransferStatus; refusal?: ErrorAnswer };

/**
 * Runs an archive import to its end (the request waits for it); the job shows its outcome.
 * Another import running throws a TransferError (409) before the archive is read.
 */
export async function runArchiveImport(
  db: Db,
  storage: MediaStorage,
  source: Readable,
  who: Who & { filename: string },
): Promise<ArchiveImportRun> {
  let status: TransferStatus;
  try {
    status = beginTransfer('archive', who.filename);
  } catch (error) {
    source.on('error', () => undefined);
    source.destroy(); // busy: the archive is not read at all
    throw error;
  }
  status.phase = 'files';
  try {
    const summary = await importArchive(db, storage, source, {
      onFile: (done, all) => {
        status.media = { done, total: all };
      },
    });
    await imported(
      db,
      status,
      who,
      { source: 'archive', file: who.filename.slice(0, 200) },
      summary,
    );
  } catch (error) {
    // Refused before it was read (say, the instance has content): a late error of the
    // source, such as its file vanishing meanwhile, no longer matters.
    source.on('error', () => undefined);
    source.destroy();
    const failure = failureOf(error);
    finishTransfer(status, { ok: false, error: failure.message });
    return { status, ...(refusalAnswer(error) ? { refusal: failure } : {}) };
  }
  return { status };
}

export type MicroCmsStart = {
  baseUrl: string;
  apiKey: string;
  client?: Omit<MicroCmsClientOptions, 'baseUrl' | 'apiKey'>;
};

/**
 * Starts a microCMS import in the background of this process. Returns its state at once
 * (throws a TransferError while another import runs) and `done`, which settles with the
 * final state (the CLI and tests wait on it; the page polls).
 */
export function startMicroCmsImport(
  db: Db,
  storage: MediaStorage,
  input: MicroCmsStart,
  who: Who,
): { status: TransferStatus; done: Promise<TransferStatus> } {
  const host = new URL(input.baseUrl).host;
  const status = beginTransfer('microcms', host);
  const done = (async () => {
    try {
      const summary = await importFromMicroCms(
        db,
        storage,
        { ...input.client, baseUrl: input.baseUrl, apiKey: input.apiKey },
        status,
      );
      await imported(db, status, who, { source: 'microcms', host: summary.host }, summary);
    } catch (error) {
      finishTransfer(status, { ok: false, error: failureOf(error).message });
    }
    return status;
  })();
  return { status, done };
}
