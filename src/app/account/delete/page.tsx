import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { CurrentPasswordField } from '@/components/account/account-fields';
import { PostForm, Checkbox } from '@/components/forms/form.client';
import { AccountPage, Notice } from '@/components/account/account-page';
import { accountMetadata } from '@/components/account/metadata';
import { readFlash } from '@/server/platform/http/read-flash';
import { getAuthState, requireUser } from '@/server/features/identity/session';
import { currentPlanName } from '@/lib/auth-state';
import styles from '@/components/account/account-page.module.css';
import type { SearchParamsProps } from '@/components/listing/page-params';

export const metadata = accountMetadata('退会', '/account/delete');

export default async function DeleteAccountPage({ searchParams }: SearchParamsProps) {
  const query = await searchParams;
  if (query.done) {
    return (
      <AccountPage title="退会手続きが完了しました">
        <Notice>
          <p>アカウントと登録情報を削除しました。これまでのご利用ありがとうございました。</p>
        </Notice>
        <Link href="/">トップページへ</Link>
      </AccountPage>
    );
  }
  await requireUser('/account/delete');
  const plan = currentPlanName(await getAuthState());
  const flash = await readFlash();
  return (
    <AccountPage title="退会" footer={<Link href="/account/edit">アカウント設定に戻る</Link>}>
      <div className={styles.lead}>
        <p>退会すると、次のとおりになります。この操作は取り消せません。</p>
        <ul>
          <li>
            {plan
              ? `ご契約中のプラン（${plan}）は直ちに解約され、以後の請求は行われません。残りの期間分の返金はありません。`
              : 'ご契約中の有料プランはありません。'}
          </li>
          <li>
            アカウント、プロフィール、ブックマークなどの登録情報をすべて削除し、ログアウトします。
          </li>
          <li>お支払いの記録は、法令で定められた期間、個人を特定できない形で保管します。</li>
          <li>同じメールアドレスで、あらためて会員登録することはできます。</li>
        </ul>
      </div>
      <PostForm
        action="/api/account/delete"
        submitLabel="退会する"
        submitColor="black"
        initialErrors={flash}
        changesLogin
      >
        <CurrentPasswordField confirmsIdentity />
        <Checkbox name="confirm">上記の内容を確認し、退会します</Checkbox>
      </PostForm>
    </AccountPage>
  );
}
