import { expect, it } from 'vitest';
import { encodeFlash } from '@/lib/http/flash';
import { countedStream, streamedPost } from './streams';

/**
 * What every public form's route must do before it reads a post (contact, the partner
 * inquiries): refuse another site's post, and stop reading a body past its 64 KB limit.
 */

const SITE = 'http://localhost:3000';

/** The 403 and 413 tests of a form route; `field` is one of the form's fields. */
export function itRefusesForeignAndLargePosts(
  path: string,
  handle: (request: Request) => Promise<Response>,
  field: string,
): void {
  it('refuses a post from another site with 403 before reading it', async () => {
    const response = await handle(
      new Request(`${SITE}${path}`, {
        method: 'POST',
        headers: {
          host: 'localhost:3000',
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: `${field}=a`,
      }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      ok: false,
      message: 'このページからは送信できません。ページを再読み込みしてください。',
    });
  });

  it('stops reading a 400 MB chunked post at 64 KB and answers 413', async () => {
    const body = countedStream({ head: `${field}=a&message=`, total: 400 * 1024 * 1024 });
    const response = await handle(
      streamedPost(`${SITE}${path}`, body.stream, {
        host: 'localhost:3000',
        origin: SITE,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      }),
    );
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThan(64 * 1024 + 2 * 64 * 1024);
  });
}

/**
 * A refused plain post's one-time cookie, from `posted` (every field far too long) with every
 * field's message: it keeps only the form's fields (those `fieldErrors` names), each clipped so
 * that the cookie stays under the 4 KB a browser keeps. Returns the values it carries.
 */
export function expectFlashWithinCookie(
  flashValues: (raw: Record<string, unknown>) => Record<string, unknown>,
  posted: Record<string, unknown>,
  fieldErrors: Record<string, string>,
): Record<string, unknown> {
  const values = flashValues({ ...posted, extra: 'ignored' });
  expect(Object.keys(values).sort()).toEqual(Object.keys(fieldErrors).sort());
  const cookie = `axis_flash=${encodeFlash({
    message: '入力内容を確認してください。',
    fieldErrors,
    values: values as Record<string, string>,
  })}`;
  expect(cookie.length).toBeLessThan(4096);
  return values;
}
