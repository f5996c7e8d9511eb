import 'server-only';
import { getDb } from '@/server/db/client';
import { clientIp, isSameOriginRequest } from '@/server/http/request-origin';
import {
  FORBIDDEN_ORIGIN_MESSAGE,
  type FormInput,
  SERVER_ERROR_MESSAGE,
  UNREADABLE_MESSAGE,
  formAnswer,
  jsonAnswer,
  readFormInput,
} from '@/server/http/form-endpoint';
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

type Input = FormInput;

/** Where a plain post without a same-site Referer is sent back to. */
const FORM_PAGES: Record<string, string> = {
  'sign-up': '/sign-up',
  'sign-in': '/login',
  'sign-out': '/',
  'forgot-password': '/account/forgot-password',
  'reset-password': '/account/reset-password',
  'change-email': '/account/change-email',
  'edit-profile': '/account/edit',
  delete: '/account/delete',
};
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

export async function handleAccountPost(request: Request, flowName: string): Promise<Response> {
  const flow = Object.hasOwn(FLOWS, flowName) ? FLOWS[flowName] : undefined;
  if (!flow) return jsonAnswer(404, { ok: false, message: 'ページが見つかりません。' });
  // CSRF: a state-changing request must come from a page of this site.
  if (!isSameOriginRequest(request))
    return jsonAnswer(403, { ok: false, message: FORBIDDEN_ORIGIN_MESSAGE });
  const input = await readFormInput(request, flow.maxBytes);
  if (!input) return jsonAnswer(400, { ok: false, message: UNREADABLE_MESSAGE });
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
      return jsonAnswer(500, { ok: false, message: SERVER_ERROR_MESSAGE });
    }
  }

  return formAnswer(request, result, input, {
    formPage: FORM_PAGES[flowName] ?? '/',
    signInPage: flow.signedIn,
  });
}
