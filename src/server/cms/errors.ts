import 'server-only';

/** An error answer of the content API: `{message}` JSON (no body for a bare 404), as microCMS. */
export class CmsApiError extends Error {
  constructor(
    readonly status: number,
    message: string | null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? '');
    this.name = 'CmsApiError';
  }

  get hasMessage(): boolean {
    return this.message !== '';
  }
}

export const notFound = () => new CmsApiError(404, null);
export const badRequest = (message: string) => new CmsApiError(400, message);
export const invalidParameter = () => badRequest('invalid parameter.');

/** A write that started from an older version than the stored one (the console's check). */
export class ContentConflict extends Error {
  constructor(
    readonly updatedAt: string,
    readonly updatedBy: string | null,
  ) {
    super('The content was changed by someone else.');
    this.name = 'ContentConflict';
  }
}
