/** Site-wide navigation and texts shared by the header, footer, home page and sitemap. */

export type NavItem = { href: string; label: string; description: string };

/**
 * What コネクト is, in one phrase: pages announcing members' events (portfolio reviews, visits,
 * reading groups), which members read; not a place where members post or talk to each other.
 * Every surface that describes it (navigation, its list, the paywall, the plans) says this.
 */
export const CONNECT_DESCRIPTION = 'ポートフォリオレビューや見学会など、会員向けイベントのご案内';

/** Every reading area of SPEC §2, in the order the header shows them. */
export const AREA_NAV: readonly NavItem[] = [
  { href: '/posts', label: '記事', description: 'デザインの現場を伝えるインタビューとレポート' },
  { href: '/feature', label: '特集', description: 'ひとつのテーマを多角的に掘り下げる特集号' },
  { href: '/series', label: '連載', description: '書き手とともに続いていくシリーズ' },
  { href: '/insight', label: 'インサイト', description: 'デザインの潮流を読み解く分析と考察' },
  { href: '/movies', label: '動画', description: 'アトリエや展示の現場を映像で' },
  { href: '/audios', label: '音声', description: 'ゲストと語る、耳で聴くデザインの話' },
  { href: '/connect', label: 'コネクト', description: CONNECT_DESCRIPTION },
  { href: '/jobs', label: '求人', description: 'デザインに関わる仕事の求人情報' },
];

export const SERVICE_NAV: readonly NavItem[] = [
  { href: '/service-plans', label: '料金プラン', description: '会員プランの内容と料金' },
  { href: '/biz/about', label: '法人の方へ', description: 'パートナー企業向けのご案内' },
  { href: '/search', label: '検索', description: 'すべてのコンテンツから探す' },
];

/** The footer's information links (SPEC §2 routes). */
export const INFO_NAV: readonly Omit<NavItem, 'description'>[] = [
  { href: '/about', label: 'このサイトについて' },
  { href: '/faq', label: 'よくある質問' },
  { href: '/contact', label: 'お問い合わせ' },
  { href: '/terms', label: '利用規約' },
  { href: '/specified-commercial-transactions', label: '特定商取引法に基づく表記' },
  { href: '/studio', label: 'スタジオ' },
];

export const SITE_DESCRIPTION =
  'デザインの「いま」を読み解く、デザインメディアの会員制サイト。記事、音声、動画、連載、特集、インサイト、求人情報を通して、デザイナーの仕事と学びを支えます。';

export const SITE_TAGLINE = 'デザインの「いま」を、深く読む。';

/** SPEC §9: the default share image is 1200×630. */
export const DEFAULT_SHARE_IMAGE = { url: '/og-default.png', width: 1200, height: 630 } as const;
