import { LinkList, Notice, Section } from '@/components/account/account-page';
import account from '@/components/account/account-page.module.css';

/**
 * 法人プラン on the account hub: the reader's seat (or the clear message that none was left),
 * and a link to the screen of each organisation they administer. Nothing when neither applies.
 */
export function OrganizationStanding({
  standing,
  administered,
}: {
  standing: { organizationName: string; status: 'active' | 'waiting' } | null;
  administered: readonly { id: string; name: string }[];
}) {
  if (!standing && administered.length === 0) return null;
  return (
    <Section title="法人プラン">
      {standing?.status === 'active' ? (
        <p className={account.state}>
          {standing.organizationName}
          の法人プランのメンバーです。有料会員限定の記事もすべてお読みいただけます。
        </p>
      ) : null}
      {standing?.status === 'waiting' ? (
        <Notice tone="error">
          <p>
            {standing.organizationName}
            の法人プランは、契約している席がすべて使われているため、いまは有料会員としてお読みいただけません。法人の管理者にお知らせしました。席が空くと、次にサイトを開いたときから読めるようになります。
          </p>
        </Notice>
      ) : null}
      {administered.length > 0 ? (
        <LinkList
          links={administered.map((o) => ({
            href:
              administered.length > 1
                ? `/account/organization?org=${encodeURIComponent(o.id)}`
                : '/account/organization',
            label: `${o.name}の法人プランを管理する`,
          }))}
        />
      ) : null}
    </Section>
  );
}
