import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { StaffPageHead } from '@/components/admin/staff-list-page';
import { TipList, TipTotals } from '@/components/admin/tips/tip-report';
import type { SearchParamsProps } from '@/components/listing/page-params';
import { TIP_POST_ID } from '@/lib/billing/tip';
import { listPaidTips } from '@/server/features/purchases';
import { getDb } from '@/server/platform/db/client';
import { requireStaff } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('チップ', '/admin/tips'),
);

const LIMIT = 200;

/**
 * The tips readers sent (チップ, docs/decisions/053-one-time-payments.md), for editors and admins
 * (everyone else sees the 404 page): the totals per post, and the paid tips newest first with
 * their messages, of all posts or of one (`?post=ID`). A refunded tip is not counted.
 */
export default async function AdminTipsPage({ searchParams }: SearchParamsProps) {
  await requireStaff();
  const raw = (await searchParams).post;
  const post = typeof raw === 'string' && TIP_POST_ID.test(raw) ? raw : undefined;
  const { tips, totals } = await listPaidTips(await getDb(), { contentId: post, limit: LIMIT });
  const title = post ? (totals[0]?.title ?? post) : null;
  return (
    <div className={adminStyles.page}>
      <StaffPageHead
        title="チップ"
        lead={
          <>
            読者から届いたチップです（お支払い済みのもの。返金したものは含みません。金額は税込）。読者の名前は公開プロフィールの表示名で、退会した読者は「匿名の読者」と表示します。
            {post ? (
              <>
                {' '}
                記事「{title}」のチップだけを表示しています。
                <Link href="/admin/tips">すべての記事のチップを見る</Link>
              </>
            ) : null}
          </>
        }
      />
      {totals.length === 0 ? (
        <p className={adminStyles.empty}>
          {post ? 'この記事へのチップはまだありません。' : 'チップはまだ届いていません。'}
        </p>
      ) : (
        <>
          <TipTotals totals={totals} />
          <TipList tips={tips} limit={LIMIT} />
        </>
      )}
    </div>
  );
}
