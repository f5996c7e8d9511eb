import { type ConsolePermission, can } from '@/lib/access/console-permissions';
import type { Role } from '@/lib/identity/roles';

/**
 * The console's screens, in the order the navigation and the start page list them. Those
 * marked adminOnly are left out of both for an editor: not hidden, never sent. Each screen
 * still checks the viewer itself; this list only decides what is offered.
 */
export type AdminSection = {
  href: string;
  label: string;
  /** What the start page's card says the screen is for. */
  description: string;
  adminOnly?: boolean;
};

export const ADMIN_HOME = '/admin';

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  {
    href: '/admin/content',
    label: 'コンテンツ',
    description: '記事・音声・動画・特集などの作成と編集、プレビュー、公開・予約公開、変更履歴',
  },
  {
    href: '/admin/media',
    label: 'メディア',
    description: '画像・音声・動画のアップロード、代替テキスト、使われている場所の確認',
  },
  {
    href: '/admin/newsletter',
    label: 'ニュースレター',
    description: '記事のメール配信の記録と送信状況（配信は記事の編集画面から）、配信停止リスト',
  },
  {
    href: '/admin/mail',
    label: 'メール送信箱',
    description: 'SMTP を設定していないときに送られたメール（確認・再設定のリンクなど）を読む',
  },
  {
    href: '/admin/contact',
    label: 'お問い合わせ',
    description: 'お問い合わせフォームから届いたメッセージを新しい順に読む',
  },
  {
    href: '/admin/comments',
    label: 'コメント',
    description: '読者のコメントの報告への対応、非表示・ピン留め、投稿者のコメント停止',
  },
  {
    href: '/admin/tips',
    label: 'チップ',
    description: '読者から届いたチップ：記事ごとの件数と合計、金額・メッセージ・お支払い方法',
  },
  {
    href: '/admin/analytics',
    label: '分析',
    description:
      'MRR・有料メンバー・転換率（管理者）、コンテンツごとの閲覧・登録・有料申し込み、日ごとの閲覧数',
  },
  {
    href: '/biz/axis-admin',
    label: 'パートナープログラム',
    description: 'パートナー企業と契約、求人の審査、企業からの申し込み・問い合わせ',
  },
  {
    href: '/admin/users',
    label: 'ユーザー',
    description: 'ユーザーの検索、権限・プラン・パートナー所属の変更、全端末からのログアウト',
    adminOnly: true,
  },
  {
    href: '/admin/offers',
    label: 'オファー',
    description: '割引のコードとリンク（/service-plans?offer=コード）の作成・一覧・無効化',
    adminOnly: true,
  },
  {
    href: '/admin/organizations',
    label: '法人プラン',
    description: '法人の登録・編集：席数、参加できるメールアドレスのドメイン、宛名、支払い方法',
    adminOnly: true,
  },
  {
    href: '/admin/settings',
    label: 'サイトの設定',
    description:
      'メーター制：無料会員が毎月全文を読める会員限定記事の本数（0 でオフ）と、読まれた記事ごとのその後の有料申し込み',
    adminOnly: true,
  },
  {
    href: '/admin/api-keys',
    label: 'APIキー',
    description: 'コンテンツ API のキーの作成・無効化と、最後に使われた日時',
    adminOnly: true,
  },
  {
    href: '/admin/audit',
    label: '監査ログ',
    description: 'サインインや権限・プラン・キーの変更など、記録された操作を新しい順に見る',
    adminOnly: true,
  },
  {
    href: '/admin/transfer',
    label: '取り込みと書き出し',
    description: 'すべてのコンテンツとメディアの書き出し・読み込み、microCMS からの移行',
    adminOnly: true,
  },
];

/** What a screen needs (src/lib/access/console-permissions.ts). */
const needs = (section: AdminSection): ConsolePermission =>
  section.adminOnly ? 'admin-areas' : section.href === '/admin/content' ? 'console' : 'staff-areas';

/** The screens a role is offered: a contributor only コンテンツ (their own drafts). */
export function sectionsFor(role: Role): AdminSection[] {
  return ADMIN_SECTIONS.filter((section) => can(role, needs(section)));
}
