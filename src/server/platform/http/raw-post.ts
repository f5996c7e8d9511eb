import 'server-only';
import { FORBIDDEN_ORIGIN_MESSAGE, jsonAnswer, notFoundAnswer } from './form-endpoint';
import { isSameOriginRequest } from './request-origin';

/**
 * The first checks of endpoint() for a post it cannot take (a streamed upload, far over a
 * form's body ceiling): whoever `viewer` does not admit gets the page's bare 404 before
 * anything they sent is read, and a post from another site a 403. Answers the admitted viewer,
 * or the response to send.
 */
export async function rawPostViewer<U>(
  request: Request,
  viewer: (request: Request) => Promise<U | null>,
): Promise<U | Response> {
  const user = await viewer(request);
  if (!user) return notFoundAnswer(request);
  if (!isSameOriginRequest(request))
    return jsonAnswer(403, { ok: false, message: FORBIDDEN_ORIGIN_MESSAGE });
  return user;
}
