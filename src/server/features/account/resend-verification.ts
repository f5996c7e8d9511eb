import 'server-only';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { maskAddress } from '@/server/platform/mail/mailer';
import { addressKey } from '@/server/platform/rate-limit/client-address';
import { consumeOrRefuse } from '@/server/platform/forms/submit';
import {
  type FlowContext,
  type FlowDeps,
  type FlowResult,
  LIMITS,
  verifiedPage,
} from './account-flows';
import { RESENT_PAGE, sentMailCookie, sentMailOf } from '@/server/features/identity';

/**
 * The sent page's 「確認メールを再送する」 (docs/decisions/039-reader-path.md). The address is the
 * sent page's signed cookie's (sign-up-sent.ts), never the form's; limited like the other mails,
 * and the same answer whatever the address (better-auth sends nothing to an unknown or an
 * already confirmed one).
 */

export const RESEND_REFUSED_MESSAGE =
  '確認メールを送り直せませんでした。お手数ですが、もう一度会員登録をお試しください。';

/**
 * POST /api/account/resend-verification (no fields: the address is the cookie's): mails the
 * confirmation link again, with the same plan and page of origin, to an address that has an
 * account still unconfirmed; nothing to any other, with the same answer.
 */
export async function resendVerification(deps: FlowDeps, ctx: FlowContext): Promise<FlowResult> {
  const sent = sentMailOf(ctx.headers);
  if (!sent) return { ok: false, status: 400, message: RESEND_REFUSED_MESSAGE };
  // The sign-up's limit per client address; the mails to one address are capped where they are
  // sent (auth.ts, account-mail.ts), so the answer past that cap is this same one.
  const blocked = await consumeOrRefuse(deps.db, [
    { limit: LIMITS.signUpIp, subject: addressKey(ctx.ip) },
  ]);
  if (blocked) return blocked;
  await deps.auth.api.sendVerificationEmail({
    body: {
      email: sent.email,
      callbackURL: verifiedPage(sent.next, sent.plan, sent.email, sent.offer),
    },
    // No session: better-auth then looks the address up, and answers the same for any.
    headers: new Headers(),
  });
  await recordAudit(deps.db, {
    actor: 'anonymous',
    action: 'verification-resent',
    target: `email:${maskAddress(sent.email)}`,
    ip: ctx.ip,
  });
  return {
    ok: true,
    redirectTo: RESENT_PAGE,
    message: `確認メールを ${sent.email} にもう一度送信しました。`,
    // The new link lives from now: so does the page that names it.
    setCookies: [sentMailCookie(sent)],
  };
}
