import 'server-only';
import { AppError } from '@/lib/errors';

/** An error answer of the content API: `{message}` JSON (no body for a bare 404), as microCMS. */
export class CmsApiError extends AppError {
  constructor(
    status: number,
    message: string | null,
    headers: Record<string, string> = {},
    /** What the console and other callers branch on: the message is microCMS's English. */
    code = `cms-${status}`,
  ) {
    super(message ?? '', { status, code, expose: true, headers });
    this.name = 'CmsApiError';
  }

  get hasMessage(): boolean {
    return this.message !== '';
  }
}

export const notFound = () => new CmsApiError(404, null);
export const badRequest = (message: string, code?: string) =>
  new CmsApiError(400, message, {}, code);
export const invalidParameter = () => badRequest('invalid parameter.');

/** A write that started from an older version than the stored one (the console's check). */
export class ContentConflict extends AppError {
  constructor(
    readonly updatedAt: string,
    readonly updatedBy: string | null,
  ) {
    super('The content was changed by someone else.', { status: 409, code: 'content-conflict' });
    this.name = 'ContentConflict';
  }
}
