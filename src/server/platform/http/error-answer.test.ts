import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, GENERIC_ERROR_MESSAGE } from '@/lib/errors';
import { BookmarkError } from '@/server/features/bookmarks/bookmarks';
import { CheckoutRefused } from '@/server/features/billing/checkout';
import { PortalForbidden } from '@/server/features/billing/portal';
import { CmsApiError, ContentConflict } from '@/server/services/cms/errors';
import { QueryError } from '@/server/services/cms/query/params';
import { ContentWriteUnavailableError } from '@/server/features/content/content-writer';
import { RateLimitedError } from '@/server/platform/rate-limit/limiter';
import { MediaRejection } from '@/server/platform/storage/media-types';
import { MultipartError } from '@/server/platform/storage/multipart';
import { TarFormatError } from '@/server/platform/archive/tar';
import { BackupError } from '@/server/features/backup/errors';
import { TransferError } from '@/server/features/transfer/errors';
import { NotEmptyError } from '@/server/features/transfer/inventory';
import {
  catchRefusal,
  errorAnswer,
  errorResponse,
  failedResult,
  refusalAnswer,
} from './error-answer';

afterEach(() => vi.restoreAllMocks());

describe('the error family', () => {
  it('gives every refusal a status, a stable code and its message unchanged', () => {
    const cases: [AppError, number, string][] = [
      [new RateLimitedError(90), 429, 'rate-limited'],
      [new BookmarkError('limit', 'いっぱいです。'), 400, 'limit'],
      [
        new CheckoutRefused('already-subscribed', '登録済みです。'),
        409,
        'checkout-already-subscribed',
      ],
      [new PortalForbidden(), 403, 'portal-forbidden'],
      [new CmsApiError(404, null), 404, 'cms-404'],
      [new ContentConflict('2026-01-01T00:00:00.000Z', null), 409, 'content-conflict'],
      [new QueryError('invalid parameter.', 'filters'), 400, 'invalid-query'],
      [new ContentWriteUnavailableError(), 503, 'content-write-unavailable'],
      [new MediaRejection(413, '大きすぎます。'), 413, 'media-too-large'],
      [new MultipartError('読めません。'), 400, 'multipart-unreadable'],
      [new TransferError('壊れています。'), 400, 'transfer-refused'],
      [
        new TransferError('実行中です。', { status: 409, code: 'transfer-busy' }),
        409,
        'transfer-busy',
      ],
      [new NotEmptyError('コンテンツがあります。'), 409, 'transfer-not-empty'],
      [new BackupError('壊れています。'), 400, 'backup-refused'],
      [new BackupError('すでにあります。', { status: 409 }), 409, 'backup-refused'],
      [new TarFormatError('途中で終わっています。'), 400, 'archive-unreadable'],
    ];
    for (const [error, status, code] of cases) {
      expect(error).toBeInstanceOf(AppError);
      expect(error).toBeInstanceOf(Error);
      expect({ status: error.status, code: error.code }).toEqual({ status, code });
    }
    expect(new RateLimitedError(90).message).toContain('2 分ほど');
    expect(new PortalForbidden().message).toBe('この操作を行う権限がありません。');
    expect(new RateLimitedError(90).name).toBe('RateLimitedError');
  });

  it('shows a message below 500 and hides one from 500 up unless told', () => {
    expect(new AppError('x', { status: 400, code: 'x' }).expose).toBe(true);
    expect(new AppError('x', { status: 503, code: 'x' }).expose).toBe(false);
    expect(new ContentWriteUnavailableError().expose).toBe(false);
  });
});

describe('errorAnswer', () => {
  it('answers a refusal with its status, message and retry time', () => {
    expect(errorAnswer(new RateLimitedError(30), { log: '[t] failed:' })).toEqual({
      status: 429,
      message: new RateLimitedError(30).message,
      headers: {},
      retryAfterSeconds: 30,
    });
  });

  it('logs anything else and answers 500 with a generic message', () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fault = new Error('secret detail');
    for (const error of [fault, new ContentWriteUnavailableError(), 'thrown text']) {
      expect(errorAnswer(error, { log: '[t] failed:' })).toEqual({
        status: 500,
        message: GENERIC_ERROR_MESSAGE,
        headers: {},
      });
    }
    expect(log).toHaveBeenCalledWith('[t] failed:', fault);
    expect(errorAnswer(fault, { log: '[t]', faultMessage: 'Internal Server Error' }).message).toBe(
      'Internal Server Error',
    );
  });
});

describe('refusalAnswer, failedResult and catchRefusal', () => {
  it('give a refusal its answer, and nothing for a fault', () => {
    const pinned = new AppError('代替テキストを入力してください。', {
      status: 400,
      code: 'upload-alt',
      field: 'alt',
    });
    expect(refusalAnswer(pinned)).toEqual({
      status: 400,
      message: '代替テキストを入力してください。',
      headers: {},
      field: 'alt',
    });
    expect(refusalAnswer(new Error('x'))).toBeUndefined();
    expect(refusalAnswer(new ContentWriteUnavailableError())).toBeUndefined();
  });

  it('write a refusal as a form’s failed result, beside its field and with its retry time', () => {
    expect(failedResult(refusalAnswer(new RateLimitedError(30))!)).toEqual({
      ok: false,
      status: 429,
      message: new RateLimitedError(30).message,
      retryAfter: 30,
    });
    const pinned = new AppError('選んでください。', { status: 400, code: 'x', field: 'file' });
    expect(failedResult(refusalAnswer(pinned)!)).toEqual({
      ok: false,
      status: 400,
      message: '選んでください。',
      fieldErrors: { file: '選んでください。' },
    });
  });

  it('turn a thrown refusal into that result and throw a fault on', async () => {
    expect(await catchRefusal(() => Promise.resolve(7))).toBe(7);
    expect(
      await catchRefusal(() => Promise.reject(new TransferError('実行中です。', { status: 409 }))),
    ).toEqual({ ok: false, status: 409, message: '実行中です。' });
    const fault = new Error('secret detail');
    await expect(catchRefusal(() => Promise.reject(fault))).rejects.toBe(fault);
  });
});

describe('errorResponse', () => {
  it('sends {message} JSON with the status and the error headers', async () => {
    const response = errorResponse(new CmsApiError(429, 'Too many.', { 'x-limit': '1' }), {
      log: '[t]',
      jsonHeaders: () => ({ 'x-extra': 'yes' }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-limit')).toBe('1');
    expect(response.headers.get('x-extra')).toBe('yes');
    expect(await response.json()).toEqual({ message: 'Too many.' });
  });

  it('sends no body for a blank message, or the blank message it is given', async () => {
    const bare = errorResponse(new CmsApiError(404, null), { log: '[t]' });
    expect(bare.status).toBe(404);
    expect(await bare.text()).toBe('');
    expect(bare.headers.get('content-type')).toBeNull();
    const filled = errorResponse(new CmsApiError(401, null), { log: '[t]', blankMessage: 'Error' });
    expect(await filled.json()).toEqual({ message: 'Error' });
  });
});
