import 'server-only';
import { env } from '@/env';
import { getDb } from '@/server/db/client';
import { clientIp, isSameOriginRequest } from '@/server/http/request-origin';
import { FLASH_COOKIE, encodeFlash } from '@/server/http/flash';
import {
  type FlowContext,
  type FlowDeps,
  type FlowResult,
  changeEmail,
  deleteAccount,
  requestPasswordReset,
  resetPassword,
  signIn,
  signOut,
  signUp,
} from './account-flows';
import { appAuth } from './app-auth';
import { editProfile } from './profile-flow';
import { type AppUser, userFromHeaders } from './session';

/**
 * POST /api/account/{flow}. A fetch from the site's forms (Accept: application/json) gets JSON
 * with a real status: 400 with a message per field, 401, 403, 429 with Retry-After. A plain form
 * post (no JavaScript) gets a 303: to the next page, or back to the form with the messages and
 * what was typed (never a password) in a one-time cookie the page shows.
 */

type Input = Record<string, unknown> & { avatar?: File | null };
type Flow = {
  signedIn: boolean;
  maxBytes: number;
  run: (
    deps: FlowDeps,
    input: Input,
    ctx: FlowContext,
    user: AppUser | null,
  ) => Promise<FlowResult>;
};

const KB = 1024;
const FLOWS: Record<string, Flow> = {
  'sign-up': { signedIn: false, maxBytes: 16 * KB, run: (d, i, c) => signUp(d, i, c) },
  'sign-in': { signedIn: false, maxBytes: 16 * KB, run: (d, i, c) => signIn(d, i, c) },
  'sign-out': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, _i, c, u) => signOut(d, c, u?.id ?? null),
  },
  'forgot-password': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, i, c) => requestPasswordReset(d, i, c),
  },
  'reset-password': {
    signedIn: false,
    maxBytes: 16 * KB,
    run: (d, i, c) => resetPassword(d, i, c),
  },
  'change-email': {
    signedIn: true,
    maxBytes: 16 * KB,
    run: (d, i, c, u) => changeEmail(d, i, c, u!),
  },
  'edit-profile': {
    signedIn: true,
    maxBytes: 3 * 1024 * KB,
    run: (d, i, c, u) => editProfile(d, i, c, u!),
  },
  delete: { signedIn: true, maxBytes: 16 * KB, run: (d, i, c, u) => deleteAccount(d, i, c, u!) },
};

/** Fields never sent back to the form. */
const SECRET_FIELDS = new Set(['password', 'passwordConfirm', 'token', 'avatar']);

async function readInput(request: Request, maxBytes: number): Promise<Input | null> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > maxBytes) return null;
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const text = await request.text();
      if (text.length > maxBytes) return null;
      const value: unknown = JSON.parse(text || '{}');
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as Input)
        : null;
    }
    if (
      type.includes('multipart/form-data') ||
      type.includes('application/x-www-form-urlencoded')
    ) {
      const form = await request.formData();
      const input: Input = {};
      for (const key of new Set(form.keys())) {
        const values = form.getAll(key);
        if (key === 'avatar') {
          const file = values[0];
          input.avatar = file instanceof File && file.size > 0 ? file : null;
        } else if (key === 'interests') {
          input[key] = values.filter((v): v is string => typeof v === 'string');
        } else {
          const first = values[0];
          input[key] = typeof first === 'string' ? first : undefined;
        }
      }
      return input;
    }
  } catch {
    return null;
  }
  return null;
}

function jsonAnswer(status: number, body: unknown, extra: Headers = new Headers()): Response {
  extra.set('content-type', 'application/json; charset=utf-8');
  extra.set('cache-control', 'private, no-store');
  return new Response(JSON.stringify(body), { status, headers: extra });
}

/** The form page a plain post came from (same origin only), for sending it back there. */
function formPage(request: Request, flow: string): string {
  const referer = request.headers.get('referer');
  if (referer) {
    try {
      const url = new URL(referer);
      const site = new URL(env().SITE_URL);
      if (url.host === site.host || url.host === request.headers.get('host'))
        return url.pathname + url.search;
    } catch {
      /* fall through */
    }
  }
  const pages: Record<string, string> = { 'sign-in': '/login', 'sign-up': '/sign-up' };
  return pages[flow] ?? `/account/${flow === 'edit-profile' ? 'edit' : flow}`;
}

export async function handleAccountPost(request: Request, flowName: string): Promise<Response> {
  const wantsJson = (request.headers.get('accept') ?? '').includes('application/json');
  const flow = Object.hasOwn(FLOWS, flowName) ? FLOWS[flowName] : undefined;
  if (!flow) return jsonAnswer(404, { ok: false, message: 'ページが見つかりません。' });
  // CSRF: a state-changing request must come from a page of this site.
  if (!isSameOriginRequest(request)) {
    return jsonAnswer(403, {
      ok: false,
      message: 'このページからは送信できません。ページを再読み込みしてください。',
    });
  }
  const input = await readInput(request, flow.maxBytes);
  if (!input) {
    return jsonAnswer(400, {
      ok: false,
      message: '送信内容を読み取れませんでした。入力内容を確認してください。',
    });
  }
  const user = await userFromHeaders(request.headers);
  let result: FlowResult;
  if (flow.signedIn && !user) {
    result = {
      ok: false,
      status: 401,
      message: 'ログインの有効期限が切れました。もう一度ログインしてください。',
    };
  } else {
    try {
      const deps = { db: await getDb(), auth: await appAuth() };
      result = await flow.run(
        deps,
        input,
        { headers: request.headers, ip: clientIp(request.headers) },
        user,
      );
    } catch (error) {
      console.error(`[account] ${flowName} failed:`, error);
      return jsonAnswer(500, {
        ok: false,
        message: '処理中にエラーが発生しました。時間をおいてもう一度お試しください。',
      });
    }
  }

  const headers = new Headers();
  if (result.ok) for (const cookie of result.setCookies ?? []) headers.append('set-cookie', cookie);
  if (!result.ok && result.status === 429)
    headers.set('retry-after', String(result.retryAfter ?? 60));

  if (wantsJson) {
    const body = result.ok
      ? { ok: true, redirectTo: result.redirectTo ?? null, message: result.message ?? null }
      : { ok: false, message: result.message ?? null, fieldErrors: result.fieldErrors ?? {} };
    return jsonAnswer(result.ok ? 200 : result.status, body, headers);
  }
  if (result.ok) {
    headers.set('location', result.redirectTo ?? '/');
    return new Response(null, { status: 303, headers });
  }
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(input)) {
    if (SECRET_FIELDS.has(key)) continue;
    if (typeof value === 'string') values[key] = value.slice(0, 500);
    else if (Array.isArray(value))
      values[key] = value.filter((v): v is string => typeof v === 'string');
  }
  headers.append(
    'set-cookie',
    `${FLASH_COOKIE}=${encodeFlash({ message: result.message ?? null, fieldErrors: result.fieldErrors ?? {}, values })}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax`,
  );
  headers.set(
    'location',
    result.status === 401 && flow.signedIn ? '/login' : formPage(request, flowName),
  );
  return new Response(null, { status: 303, headers });
}
