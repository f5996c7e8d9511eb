/**
 * The editor's requests to the console API, and what it makes of the answers: every answer
 * becomes one of a few outcomes the form can show, and a network failure or an unreadable
 * answer is a Japanese message rather than an exception.
 */

import type { ConsoleStatus, ErrorAnswer, SaveAnswer } from '@/lib/admin-content';

export type Outcome =
  /** `answer` is null for an answer without an item (a DELETE). */
  | { kind: 'ok'; answer: SaveAnswer | null; message: string }
  | { kind: 'invalid'; message: string; fieldErrors: Record<string, string> }
  | { kind: 'conflict'; message: string; by: string | null; updatedAt: string }
  | { kind: 'failed'; status: number; message: string };

const NETWORK_MESSAGE =
  'サーバーに接続できませんでした。ネットワークを確認して、もう一度お試しください。';

const UNREADABLE_MESSAGE = 'サーバーの応答を読み取れませんでした。ページを再読み込みしてください。';

const STATUSES: readonly ConsoleStatus[] = ['draft', 'scheduled', 'published', 'changed'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A 200/201 answer; a create may answer only `{ id, updatedAt }`. */
function readSaveAnswer(body: Record<string, unknown>): SaveAnswer | null {
  if (typeof body.id !== 'string' || typeof body.updatedAt !== 'string') return null;
  const status = STATUSES.find((s) => s === body.status) ?? 'draft';
  return {
    ok: true,
    id: body.id,
    updatedAt: body.updatedAt,
    status,
    scheduledAt: stringOrNull(body.scheduledAt),
    previewUrl: stringOrNull(body.previewUrl),
    publicUrl: stringOrNull(body.publicUrl),
    message: typeof body.message === 'string' ? body.message : '保存しました。',
  };
}

function readFieldErrors(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(value))
    if (typeof message === 'string') out[key] = message;
  return out;
}

function fallbackMessage(status: number): string {
  if (status === 404) return 'この項目は見つかりませんでした。削除されたか、権限がありません。';
  if (status === 413) return '内容が大きすぎて保存できませんでした。';
  if (status === 429) return '操作が多すぎます。少し待ってからもう一度お試しください。';
  return `保存できませんでした（エラー ${status}）。時間をおいてもう一度お試しください。`;
}

export async function sendJson(
  method: 'POST' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { kind: 'failed', status: 0, message: NETWORK_MESSAGE };
  }
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    parsed = null;
  }
  const body_ = isRecord(parsed) ? (parsed as Partial<ErrorAnswer> & Record<string, unknown>) : {};
  const message =
    typeof body_.message === 'string'
      ? body_.message
      : response.ok
        ? '完了しました。'
        : fallbackMessage(response.status);
  if (response.ok) {
    const answer = readSaveAnswer(body_);
    if (answer) return { kind: 'ok', answer, message: answer.message };
    if (method === 'DELETE') return { kind: 'ok', answer: null, message };
    return { kind: 'failed', status: response.status, message: UNREADABLE_MESSAGE };
  }
  if (
    response.status === 409 &&
    isRecord(body_.conflict) &&
    typeof body_.conflict.updatedAt === 'string'
  ) {
    return {
      kind: 'conflict',
      message,
      by: stringOrNull(body_.conflict.by),
      updatedAt: body_.conflict.updatedAt,
    };
  }
  if (response.status === 400) {
    return { kind: 'invalid', message, fieldErrors: readFieldErrors(body_.fieldErrors) };
  }
  return { kind: 'failed', status: response.status, message };
}
