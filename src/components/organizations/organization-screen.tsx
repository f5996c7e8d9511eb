import { Section } from '@/components/account/account-page';
import account from '@/components/account/account-page.module.css';
import { Button } from '@/components/ui/button';
import { formatDateJa, formatYen } from '@/lib/format';
import styles from './organization-screen.module.css';

/**
 * The organisation admin's screen (/account/organization, docs/decisions/058-organizations.md):
 * seats used and left, the members with their last visit and a button to remove each, the form
 * that invites an address, the organisation's invoices and receipts, and the monthly reading
 * report. Plain forms and a GET form for the CSV: it works without JavaScript.
 */

export type ScreenMember = {
  userId: string;
  name: string;
  email: string;
  status: 'active' | 'waiting';
  lastSeenAt: Date | null;
};

/** An invoice of the organisation as the provider has it (dates as ISO strings). */
export type ScreenInvoice = {
  id: string;
  number: string;
  status: string;
  total: number;
  issuedAt: string;
  dueDate: string | null;
  paidAt: string | null;
};

const day = (at: Date) => formatDateJa(at.toISOString());

export function SeatsSection({
  seats,
  used,
  renewalSeats,
  change,
}: {
  seats: number;
  used: number;
  renewalSeats: number | null;
  /** The form that changes the seats, once the organisation is billed (its subscription). */
  change?: { organizationId: string; error: string | null; typed: string } | null;
}) {
  return (
    <Section title="席">
      <dl className={styles.figures}>
        <div>
          <dt>契約席数</dt>
          <dd>{seats}</dd>
        </div>
        <div>
          <dt>使用中</dt>
          <dd>{used}</dd>
        </div>
        <div>
          <dt>残り</dt>
          <dd>{Math.max(0, seats - used)}</dd>
        </div>
      </dl>
      <p className={account.state}>
        {renewalSeats !== null ? `次回の更新から ${renewalSeats} 席になります。` : null}
        {change
          ? '席を増やすとすぐに使えるようになり、今期の残りの分を日割りで請求します。減らした席は次回の更新から反映され、それまでは使えます。'
          : renewalSeats === null
            ? '席の追加・削減はサイトの運営者にご連絡ください（追加はすぐに、削減は次回の更新から反映されます）。'
            : null}
      </p>
      {change ? (
        <form method="post" action="/api/organization/seats" className={styles.form} noValidate>
          <input type="hidden" name="org" value={change.organizationId} />
          <label htmlFor="seats-count">席数</label>
          <input
            id="seats-count"
            name="seats"
            type="number"
            inputMode="numeric"
            min={1}
            required
            defaultValue={change.typed || String(renewalSeats ?? seats)}
            aria-invalid={change.error ? true : undefined}
            aria-describedby={change.error ? 'seats-count-error' : undefined}
          />
          {change.error ? (
            <p id="seats-count-error" role="alert">
              {change.error}
            </p>
          ) : null}
          <Button type="submit" color="yellow" height={44}>
            席数を変更する
          </Button>
        </form>
      ) : null}
    </Section>
  );
}

export function MembersSection({
  organizationId,
  members,
}: {
  organizationId: string;
  members: readonly ScreenMember[];
}) {
  return (
    <Section title="メンバー">
      {members.length === 0 ? (
        <p className={account.state}>まだメンバーはいません。</p>
      ) : (
        <ul className={styles.members}>
          {members.map((m) => (
            <li key={m.userId} className={styles.member}>
              <div>
                <p>
                  {m.name}（{m.email}）
                </p>
                <p className={styles.meta}>
                  {m.status === 'active' ? '利用中' : '席の空き待ち'}・最終利用：
                  {m.lastSeenAt ? day(m.lastSeenAt) : 'まだありません'}
                </p>
              </div>
              <form method="post" action="/api/organization/remove">
                <input type="hidden" name="org" value={organizationId} />
                <input type="hidden" name="user" value={m.userId} />
                <Button type="submit" color="white" height={44} aria-label={`${m.email} を外す`}>
                  外す
                </Button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

export function InviteSection({
  organizationId,
  error,
  typed,
}: {
  organizationId: string;
  error: string | null;
  typed: string;
}) {
  return (
    <Section title="メンバーを招待">
      <p className={account.state}>
        登録済みのドメイン以外のアドレスでも、招待すると参加できます。招待したアドレスで会員登録（またはログイン）し、アドレスの確認が済むと、席が残っていれば読めるようになります。
      </p>
      <form method="post" action="/api/organization/invite" className={styles.form} noValidate>
        <input type="hidden" name="org" value={organizationId} />
        <label htmlFor="invite-email">メールアドレス</label>
        <input
          id="invite-email"
          name="email"
          type="email"
          autoComplete="off"
          required
          defaultValue={typed}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'invite-email-error' : undefined}
        />
        {error ? (
          <p id="invite-email-error" role="alert">
            {error}
          </p>
        ) : null}
        <Button type="submit" color="yellow" height={44}>
          招待する
        </Button>
      </form>
    </Section>
  );
}

const INVOICE_STATUS: Record<string, string> = {
  paid: '支払い済み',
  open: 'お支払い待ち',
  void: '取り消し',
  uncollectible: '回収不能',
  draft: '作成中',
};

export function InvoicesSection({
  invoices,
  quoteHref,
}: {
  invoices: readonly ScreenInvoice[];
  /** The quote (見積書) of the organisation's plan, when its price is known. */
  quoteHref?: string | null;
}) {
  return (
    <Section title="請求書">
      {invoices.length === 0 ? (
        <p className={account.state}>まだ請求書はありません。</p>
      ) : (
        <ul className={styles.members}>
          {invoices.map((invoice) => (
            <li key={invoice.id} className={styles.member}>
              <p>
                <a href={`/invoices/${encodeURIComponent(invoice.id)}`}>請求書 {invoice.number}</a>
                ・{formatDateJa(invoice.issuedAt)}・{formatYen(invoice.total)}（税込）
              </p>
              <p className={styles.meta}>
                {INVOICE_STATUS[invoice.status] ?? invoice.status}
                {invoice.paidAt
                  ? `（${formatDateJa(invoice.paidAt)}）`
                  : invoice.dueDate && invoice.status === 'open'
                    ? `（お支払期限 ${formatDateJa(invoice.dueDate)}）`
                    : ''}
              </p>
            </li>
          ))}
        </ul>
      )}
      {quoteHref ? (
        <p className={account.state}>
          <a href={quoteHref}>席を増やす前の見積書（御見積書）を作る</a>
        </p>
      ) : null}
    </Section>
  );
}

export function ReportSection({
  organizationId,
  months,
}: {
  organizationId: string;
  months: readonly string[];
}) {
  return (
    <Section title="月次の閲覧レポート">
      <p className={account.state}>
        メンバーごとに、その月に読んだ記事の数を CSV
        で書き出します（研修費の記録などにお使いください）。
      </p>
      <form method="get" action="/api/organization/report" className={styles.form}>
        <input type="hidden" name="org" value={organizationId} />
        <label htmlFor="report-month">対象月</label>
        <select id="report-month" name="month" defaultValue={months[0]}>
          {months.map((month) => (
            <option key={month} value={month}>
              {month.replace('-', '年')}月
            </option>
          ))}
        </select>
        <Button type="submit" color="white" height={44}>
          CSV をダウンロード
        </Button>
      </form>
    </Section>
  );
}
