import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { AuditEntries } from '@/components/admin/users/audit-entries';
import { planText } from '@/lib/identity/user-labels';
import { listHref } from '@/components/admin/users/list-query';
import { PageMessages } from '@/components/biz/axis-admin/messages';
import {
  FORM_ANCHORS,
  PartnerForm,
  PlanForms,
  RoleForm,
  SessionsForm,
} from '@/components/admin/users/user-forms';
import { UserFactRows } from '@/components/admin/users/user-list';
import styles from '@/components/admin/users/users.module.css';
import { failure, flashKey } from '@/lib/http/form-flash';
import { formatDateTime } from '@/lib/format';
import { USER_ID } from '@/server/features/admin/users-http';
import { getUserDetail } from '@/server/features/admin/users-directory';
import { recentAuditFor, userEmailsFor } from '@/server/platform/audit/audit-query';
import { listPlans } from '@/server/features/billing/catalogue';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';
import { partnerDeps, partnerNames } from '@/server/features/partners/partners';
import { StaffSection } from '@/components/admin/staff-list-page';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { lastLetterOpen, trackingAllowed } from '@/server/features/newsletter';

// The address is not in the title: a title is rendered before the page decides who may see it.
export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('ユーザーの管理', '/admin/users'),
);

const HISTORY = 10;

/** One account for admins: who they are, and each change as its own small form. */
export default async function AdminUserPage({ params }: RouteParamsProps<'userId'>) {
  const admin = await requireAdmin();
  const { userId } = await params;
  if (!USER_ID.test(userId)) notFound();
  const db = await getDb();
  const found = await getUserDetail(db, userId);
  if (!found) notFound();

  const target = `user:${found.id}`;
  const [partners, plans, history, received, lastOpen, tracked] = await Promise.all([
    partnerNames(await partnerDeps()),
    listPlans(db),
    recentAuditFor(db, target, HISTORY),
    readFlash(),
    lastLetterOpen(db, found.id),
    trackingAllowed(db, found.id),
  ]);
  const emails = await userEmailsFor(
    db,
    history.flatMap((h) => [h.actor, h.target]),
  );
  const flash = failure(received);
  const key = flashKey(flash);
  const isSelf = found.id === admin.id;

  return (
    <div className={adminStyles.page}>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / <Link href="/admin/users">ユーザー</Link> /{' '}
        {found.email}
      </p>
      <h1 className={adminStyles.title} style={{ overflowWrap: 'anywhere' }}>
        {found.email}
      </h1>
      <PageMessages flash={received} errorAt={key ? (FORM_ANCHORS[key] ?? null) : null} />
      <dl className={styles.facts}>
        <UserFactRows user={found} partnerNames={new Map(partners.map((p) => [p.id, p.name]))} />
        <dt>登録日時</dt>
        <dd>{formatDateTime(found.createdAt)}</dd>
        <dt>ユーザー ID</dt>
        <dd className={styles.code}>{found.id}</dd>
        <dt>ニュースレターの最後の開封</dt>
        <dd>
          {lastOpen ? formatDateTime(lastOpen) : 'なし'}
          {tracked ? '' : '（本人が計測を止めています）'}
        </dd>
      </dl>
      <RoleForm userId={found.id} role={found.role} isSelf={isSelf} flash={flash} />
      <PlanForms
        userId={found.id}
        summary={planText(found.plan)}
        subscriptions={found.subscriptions}
        plans={plans}
        flash={flash}
      />
      <PartnerForm
        userId={found.id}
        partnerId={found.partnerId}
        partners={partners}
        flash={flash}
      />
      <SessionsForm userId={found.id} activeSessions={found.activeSessions} isSelf={isSelf} />
      <StaffSection id="history" title="このユーザーへの最近の操作" anchored={false}>
        {history.length === 0 ? (
          <p className={adminStyles.empty}>記録はまだありません。</p>
        ) : (
          <AuditEntries items={history} emails={emails} headingLevel={3} />
        )}
        <p>
          <Link href={listHref('/admin/audit', { q: target })}>監査ログですべて見る</Link>
        </p>
      </StaffSection>
    </div>
  );
}
