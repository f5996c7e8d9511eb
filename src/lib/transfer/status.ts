/**
 * The state of an import, as the server's job holds it and as /admin/transfer and its status
 * route (GET /api/admin/transfer/status) show it. Pure data: no secrets (the microCMS key is
 * never part of it, only the host).
 */

export type TransferPhase =
  'counting' | 'contents' | 'media' | 'files' | 'saving' | 'done' | 'failed';

export type TransferStatus = {
  id: string;
  kind: 'archive' | 'microcms';
  /** The source: the microCMS host, or the archive's file name. */
  source: string;
  phase: TransferPhase;
  /** The endpoint being read (microCMS), else null. */
  endpoint: string | null;
  items: { done: number; total: number };
  media: { done: number; total: number };
  /** Warnings so far (the list comes with the result). */
  warnings: number;
  startedAt: string;
  finishedAt: string | null;
  /** When done: items per endpoint and the other counts. */
  result: {
    contents: Record<string, number>;
    media: number;
    versions: number;
    files: number;
  } | null;
  /** When failed: why, in Japanese (may hold several lines). */
  error: string | null;
  warningList: string[];
};

export const PHASE_LABELS: Readonly<Record<TransferPhase, string>> = {
  counting: '件数を確認しています',
  contents: 'コンテンツを読み込んでいます',
  media: 'メディアをダウンロードしています',
  files: 'ファイルを保存しています',
  saving: 'データベースに書き込んでいます',
  done: '完了しました',
  failed: '失敗しました',
};

export const isRunning = (status: TransferStatus | null): boolean =>
  !!status && status.phase !== 'done' && status.phase !== 'failed';

/** The overall share done, 0–1, for the progress bar. */
export function progressShare(status: TransferStatus): number {
  if (status.phase === 'done') return 1;
  const { items, media } = status;
  // Reading the content is about half the work, the files the other half.
  const itemShare = items.total > 0 ? items.done / items.total : 0;
  const mediaShare = media.total > 0 ? media.done / media.total : status.phase === 'saving' ? 1 : 0;
  if (status.phase === 'counting') return 0;
  if (status.phase === 'contents') return itemShare * 0.5;
  return 0.5 + mediaShare * 0.45;
}

export const TRANSFER_PAGE = '/admin/transfer';
export const transferPaths = {
  /** GET: the archive, as a download. */
  export: '/api/admin/transfer/export',
  /** POST multipart (archive, confirm): imports, then 303 to the page. */
  importArchive: '/api/admin/transfer/import',
  /** POST (baseUrl, apiKey, confirm): starts the microCMS job, then 303 to the page. */
  importMicroCms: '/api/admin/transfer/microcms',
  /** GET: { status: TransferStatus | null }. */
  status: '/api/admin/transfer/status',
} as const;
