import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { organizationAdmins, user } from '@/server/platform/db/schema';
import { sendMail } from '@/server/platform/mail/mailer';
import { dear, render } from '@/server/platform/mail/templates';

/** The organisations' mails: to its admins when a reader finds no seat, to an invited address. */

const screen = () => `${env().SITE_URL.replace(/\/+$/, '')}/account/organization`;

/** Tells each of the organisation's admins that a reader found every seat taken. */
export async function mailAdminsSeatsFull(
  db: Db,
  organizationId: string,
  organizationName: string,
  readerEmail: string,
): Promise<void> {
  const admins = await db
    .select({ email: user.email, name: user.name })
    .from(organizationAdmins)
    .innerJoin(user, eq(user.id, organizationAdmins.userId))
    .where(eq(organizationAdmins.organizationId, organizationId));
  for (const admin of admins) {
    await sendMail(
      db,
      render(admin.email, {
        kind: 'organization-seats-full',
        subject: `${organizationName}の法人プランの席が足りません`,
        greeting: dear(admin.name),
        paragraphs: [
          `${readerEmail} の方が${organizationName}の法人プランで読もうとしましたが、席がすべて使われているため、有料会員としてお読みいただけていません。`,
          '席を追加するか、使われていない席のメンバーを外すと、この方は次にサイトを開いたときから読めるようになります。{action}から管理できます。',
        ],
        action: { label: '法人プランの管理', url: screen() },
      }),
    );
  }
}

/** Invites an address to the organisation's plan. */
export async function mailInvite(db: Db, email: string, organizationName: string): Promise<void> {
  const base = env().SITE_URL.replace(/\/+$/, '');
  await sendMail(
    db,
    render(email, {
      kind: 'organization-invite',
      subject: `${organizationName}の法人プランに招待されました`,
      greeting: 'ご利用ありがとうございます。',
      paragraphs: [
        `${organizationName}の法人プランのメンバーとして、このメールアドレスが招待されました。`,
        `このアドレスで会員登録（またはログイン）し、アドレスの確認を済ませると、有料会員としてすべての記事をお読みいただけます。すでに登録済みの方はログインするだけです（${base}/login）。`,
      ],
      action: { label: '会員登録する', url: `${base}/sign-up` },
      note: 'このメールに心当たりがない場合は、何もせずに破棄してください。',
    }),
  );
}
