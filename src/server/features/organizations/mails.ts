import 'server-only';
import { eq } from 'drizzle-orm';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { formatDateJa, formatYen } from '@/lib/format';
import { organizationAdmins, type organizations, user } from '@/server/platform/db/schema';
import { sendMail } from '@/server/platform/mail/mailer';
import { dear, render } from '@/server/platform/mail/templates';

/**
 * The organisations' mails: to its admins when a reader finds no seat or an invoice is late, to
 * an invited address, and each sent invoice to the billing contact (the site's own mail, not
 * the provider's).
 */

const site = () => env().SITE_URL.replace(/\/+$/, '');
const screen = () => `${site()}/account/organization`;

const adminsOf = (db: Db, organizationId: string) =>
  db
    .select({ email: user.email, name: user.name })
    .from(organizationAdmins)
    .innerJoin(user, eq(user.id, organizationAdmins.userId))
    .where(eq(organizationAdmins.organizationId, organizationId));

type Org = typeof organizations.$inferSelect;

/** Tells each of the organisation's admins that a reader found every seat taken. */
export async function mailAdminsSeatsFull(
  db: Db,
  organizationId: string,
  organizationName: string,
  readerEmail: string,
): Promise<void> {
  for (const admin of await adminsOf(db, organizationId)) {
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
  const base = site();
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

/**
 * A sent invoice, to the billing contact (or, without one, the organisation's admins), with the
 * link to its printable page, which its admins open signed in.
 */
export async function mailInvoiceSent(db: Db, org: Org, invoiceId: string): Promise<void> {
  const to = org.billingContactEmail
    ? [{ email: org.billingContactEmail, name: org.billingContactName }]
    : await adminsOf(db, org.id);
  for (const contact of to) {
    await sendMail(
      db,
      render(contact.email, {
        kind: 'organization-invoice-sent',
        subject: `${org.name}様 法人プランの請求書を発行しました`,
        greeting: contact.name ? dear(contact.name) : `${org.addressee}`,
        paragraphs: [
          `${org.name}の法人プランの請求書を発行しました。{action}から請求書（適格請求書）をご確認・印刷いただけます（法人の管理者としてログインしてご覧ください）。`,
          'お支払いは請求書に記載の振込先口座へ、お支払期限までにお振り込みください。',
        ],
        action: {
          label: '請求書を見る',
          url: `${site()}/invoices/${encodeURIComponent(invoiceId)}`,
        },
      }),
    );
  }
}

/**
 * The first time an invoice is late (or a card organisation's renewal charge has failed): each
 * admin is told how much is unpaid and when the seats stop giving access unless it is paid.
 */
export async function mailAdminsOverdue(
  db: Db,
  org: Org,
  amountRemaining: number,
  suspendsAt: Date,
): Promise<void> {
  for (const admin of await adminsOf(db, org.id)) {
    await sendMail(
      db,
      render(admin.email, {
        kind: 'organization-invoice-overdue',
        ...(org.billing === 'card'
          ? {
              subject: `${org.name}の法人プランのカードでのお支払いができませんでした`,
              greeting: dear(admin.name),
              paragraphs: [
                `${org.name}の法人プランの更新料金（${formatYen(amountRemaining)}）を登録のカードで決済できませんでした。決済は数日おきに自動で再試行されます。`,
                `${formatDateJa(suspendsAt)}までに決済できない場合、メンバーの方は有料記事を読めなくなります（決済の完了後すぐに戻ります）。カードの有効期限や利用枠をご確認のうえ、カードを変更する場合はサイトの運営者にご連絡ください。`,
              ],
            }
          : {
              subject: `${org.name}の法人プランの請求書がお支払期限を過ぎています`,
              greeting: dear(admin.name),
              paragraphs: [
                `${org.name}の法人プランの請求書（未払い ${formatYen(amountRemaining)}）がお支払期限を過ぎています。`,
                `${formatDateJa(suspendsAt)}までにご入金が確認できない場合、メンバーの方は有料記事を読めなくなります（ご入金の確認後すぐに戻ります）。{action}から請求書をご確認ください。`,
              ],
            }),
        action: { label: '法人プランの管理', url: screen() },
      }),
    );
  }
}
