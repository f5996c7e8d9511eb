import 'server-only';
import type { z } from '@/lib/zod';
import { type Db, getDb } from '@/server/platform/db/client';
import { STAFF_ROLES } from '@/lib/identity/roles';
import { type AppUser, userFromHeaders } from '@/server/features/identity/session-user';
import { type Limit, consume } from '@/server/platform/rate-limit/limiter';
import { errorAnswer, failedResult } from '@/server/platform/http/error-answer';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import {
  CONTROL_CHARACTER_MESSAGE,
  FORBIDDEN_ORIGIN_MESSAGE,
  type FormInput,
  type FormResult,
  SERVER_ERROR_MESSAGE,
  TOO_LARGE_MESSAGE,
  UNREADABLE_MESSAGE,
  formAnswer,
  jsonAnswer,
  notFoundAnswer,
  readFormInput,
} from '@/server/platform/http/form-endpoint';
import { clientIp, isSameOriginRequest } from '@/server/platform/http/request-origin';
import { fieldErrors } from '@/lib/zod';

/**
 * One wrapper for the site's form and JSON endpoints (create-t3-app's protectedProcedure is the
 * model): the same-origin check, a per-address limit, the body read with a ceiling, control
 * characters, zod, the viewer and every error answer live here, so a handler holds only its
 * rule. Answers follow the form protocol (src/server/platform/http/form-endpoint.ts): JSON with a real
 * status for fetch, a 303 (with a one-time message) for a plain post; `answers: 'json'` for
 * clients that are not forms (a beacon, a GET read).
 *
 * Order: 404 gate → 403 origin → 429 limit → 413/400 body → 400 input → 401/403 viewer →
 * handler → 500. A route only some may use (every staff route) names them in `gate`: anyone
 * else gets the bare 404 before a byte of what they sent is read (gated-endpoint.ts).
 */

export type EndpointAuth = 'none' | 'optional' | 'user' | 'staff';
export type Viewer = { id: string };

export type EndpointContext<I, U> = {
  input: I;
  /** The fields as posted, before zod (what a plain post's one-time message puts back). */
  raw: FormInput;
  user: U;
  request: Request;
  ip: string | null;
};

export type EndpointOptions<S extends z.ZodType, A extends EndpointAuth, U extends Viewer> = {
  /** For the log line of an unexpected failure. */
  name: string;
  /** GET reads its input from the query string and needs no origin check. */
  method?: 'POST' | 'GET';
  /** Default: any fields, left for the handler to validate. */
  input?: S;
  /** Body ceiling (default 16 KB): 413 past it, counted while the body streams in. */
  maxBytes?: number;
  auth?: A;
  /**
   * Who may use the route at all, asked first: whoever it turns away, signed in or not, gets
   * the bare 404 of a route that does not exist, before the origin, the limit, the body or the
   * query is looked at. The handler then always has a viewer.
   */
  gate?: (user: U) => boolean | Promise<boolean>;
  /** Default: true for POST. */
  sameOrigin?: boolean;
  /** Per client address, counted before the body is read, so junk is limited too. */
  rateLimit?: Limit;
  answers?: 'form' | 'json';
  /** Where a plain post goes back to when it has no same-site Referer. */
  formPage?: string | ((input: z.output<S> | null) => string);
  /** Accept text/plain JSON (navigator.sendBeacon). */
  plainTextJson?: boolean;
  /** Fields whose schema deals with control characters itself (strips them, say). */
  keepControlChars?: readonly string[];
  /** What of the typed fields a plain post's one-time message carries back. */
  flashValues?: (raw: FormInput) => FormInput;
  /** The message of a 400 from zod; field messages go beside it. */
  invalidMessage?: string | ((error: z.ZodError) => string);
  messages?: { signIn?: string; unreadable?: string; tooLarge?: string };
  /** Tests: who is signed in, the database of the rate limit, the clock. */
  viewer?: (headers: Headers) => Promise<U | null>;
  db?: () => Promise<Db>;
  now?: () => number;
};

type UserOf<A extends EndpointAuth, U> = A extends 'user' | 'staff' ? U : U | null;

const DEFAULT_MAX_BYTES = 16 * 1024;
const INVALID_MESSAGE = '入力内容を確認してください。';
const SIGN_IN_MESSAGE = 'ログインの有効期限が切れました。もう一度ログインしてください。';
const STAFF_ONLY_MESSAGE = 'この操作を行う権限がありません。';

// C0 controls but tab, line feed and carriage return, and DEL: invisible in a form, and
// PostgreSQL refuses NUL in text (a 500 from deep in a flow otherwise).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** Fields holding a control character or a lone surrogate anywhere in them. */
export function controlCharacterFields(
  input: FormInput,
  keep: readonly string[] = [],
): Record<string, string> {
  const errors: Record<string, string> = {};
  const bad = (text: string) => CONTROL.test(text) || !text.isWellFormed();
  for (const [field, value] of Object.entries(input)) {
    if (bad(field)) {
      errors.form = CONTROL_CHARACTER_MESSAGE;
      continue;
    }
    if (keep.includes(field)) continue;
    // Iterative: JSON input may nest (its depth is bounded when read, but not this loop's job).
    const stack: unknown[] = [value];
    while (stack.length) {
      const item = stack.pop();
      if (typeof item === 'string') {
        if (bad(item)) {
          errors[field] = CONTROL_CHARACTER_MESSAGE;
          break;
        }
      } else if (Array.isArray(item)) stack.push(...(item as unknown[]));
      else if (typeof item === 'object' && item !== null && !(item instanceof Blob)) {
        for (const [key, inner] of Object.entries(item)) stack.push(key, inner);
      }
    }
  }
  return errors;
}

const isStaffViewer = (user: Viewer) =>
  STAFF_ROLES.includes((user as Partial<AppUser>).role ?? 'member');

export function endpoint<
  S extends z.ZodType = z.ZodType<FormInput>,
  A extends EndpointAuth = 'none',
  U extends Viewer = AppUser,
>(
  options: EndpointOptions<S, A, U>,
  handler: (ctx: EndpointContext<z.output<S>, UserOf<A, U>>) => Promise<FormResult | Response>,
): (request: Request) => Promise<Response> {
  const method = options.method ?? 'POST';
  const auth: EndpointAuth = options.auth ?? 'none';
  const sameOrigin = options.sameOrigin ?? method === 'POST';
  const messages = options.messages ?? {};
  // Without an override the viewer is an AppUser, which is what U defaults to.
  const viewer =
    options.viewer ?? (userFromHeaders as unknown as (headers: Headers) => Promise<U | null>);

  return async (request) => {
    // Filled in as the request is understood, for the answers along the way.
    let raw: FormInput = {};
    let parsedInput: z.output<S> | null = null;
    const answer = (result: FormResult): Response => {
      if (options.answers === 'json') {
        const headers = new Headers();
        if (!result.ok && result.status === 429)
          headers.set('retry-after', String(result.retryAfter ?? 60));
        const body = result.ok
          ? { ok: true, message: result.message ?? null }
          : { ok: false, message: result.message ?? null, fieldErrors: result.fieldErrors ?? {} };
        return jsonAnswer(result.ok ? 200 : result.status, body, headers);
      }
      const formPage =
        typeof options.formPage === 'function'
          ? options.formPage(parsedInput)
          : (options.formPage ?? '/');
      return formAnswer(request, result, options.flashValues?.(raw) ?? raw, {
        formPage,
        signInPage: auth === 'user' || auth === 'staff',
      });
    };
    const ip = clientIp(request.headers);
    try {
      let user: U | null = null;
      if (options.gate) {
        user = await viewer(request.headers);
        if (!user || !(await options.gate(user))) return notFoundAnswer(request);
      }

      // CSRF: a state-changing request must come from a page of this site. Answered as JSON
      // whatever the client: a one-time message is for our own forms, not another site's.
      if (sameOrigin && !isSameOriginRequest(request))
        return jsonAnswer(403, { ok: false, message: FORBIDDEN_ORIGIN_MESSAGE });

      if (options.rateLimit) {
        const db = await (options.db ?? getDb)();
        await consume(db, [{ limit: options.rateLimit, subject: addressKey(ip) }], options.now?.());
      }

      if (method === 'GET') {
        raw = Object.fromEntries(new URL(request.url).searchParams);
      } else {
        const read = await readFormInput(request, options.maxBytes ?? DEFAULT_MAX_BYTES, {
          plainTextJson: options.plainTextJson,
        });
        if (!read.ok) {
          return answer({
            ok: false,
            status: read.status,
            message:
              read.status === 413
                ? (messages.tooLarge ?? TOO_LARGE_MESSAGE)
                : (messages.unreadable ?? UNREADABLE_MESSAGE),
          });
        }
        raw = read.input;
      }

      const controls = controlCharacterFields(raw, options.keepControlChars);
      if (Object.keys(controls).length > 0) {
        const message =
          typeof options.invalidMessage === 'function'
            ? CONTROL_CHARACTER_MESSAGE
            : (options.invalidMessage ?? INVALID_MESSAGE);
        return answer({ ok: false, status: 400, message, fieldErrors: controls });
      }

      let input: z.output<S>;
      if (options.input) {
        const parsed = options.input.safeParse(raw);
        if (!parsed.success) {
          const message =
            typeof options.invalidMessage === 'function'
              ? options.invalidMessage(parsed.error)
              : (options.invalidMessage ?? INVALID_MESSAGE);
          return answer({
            ok: false,
            status: 400,
            message,
            fieldErrors: fieldErrors(parsed.error),
          });
        }
        input = parsed.data;
      } else {
        input = raw as z.output<S>;
      }
      parsedInput = input;

      if (auth !== 'none' && !options.gate) {
        user = await viewer(request.headers);
        if (!user && (auth === 'user' || auth === 'staff'))
          return answer({ ok: false, status: 401, message: messages.signIn ?? SIGN_IN_MESSAGE });
        if (user && auth === 'staff' && !isStaffViewer(user))
          return answer({ ok: false, status: 403, message: STAFF_ONLY_MESSAGE });
      }

      const result = await handler({
        input,
        raw,
        user: user as UserOf<A, U>,
        request,
        ip,
      });
      return result instanceof Response ? result : answer(result);
    } catch (error) {
      // A refusal (an AppError: the rate limit, a handler's own) answers with its status and
      // message; anything else is logged whole and the client learns nothing of it.
      return answer(
        failedResult(
          errorAnswer(error, {
            log: `[${options.name}] failed:`,
            faultMessage: SERVER_ERROR_MESSAGE,
          }),
        ),
      );
    }
  };
}
