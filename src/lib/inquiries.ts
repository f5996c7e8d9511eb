/**
 * The inquiry forms' choices and limits (/jobs/about/contact, /biz/request), shared by the
 * server's rules and the forms' hints.
 */

export const COMPANY_SIZES = [
  '1〜9名',
  '10〜49名',
  '50〜299名',
  '300〜999名',
  '1,000名以上',
] as const;

/** What /biz/about offers today: listings, editorial features, events. */
export const PARTNER_PLANS = [
  '求人掲載',
  '求人掲載と記事・動画でのご紹介',
  'イベント・見学会のご案内',
  'まだ決めていない・相談したい',
] as const;

export const INQUIRY_STATES = ['new', 'in-progress', 'done'] as const;
export type InquiryState = (typeof INQUIRY_STATES)[number];
export const INQUIRY_STATE_LABELS: Record<InquiryState, string> = {
  new: '未対応',
  'in-progress': '対応中',
  done: '完了',
};

export const INQUIRY_KINDS = ['job-posting', 'partner-application'] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];
export const INQUIRY_KIND_LABELS: Record<InquiryKind, string> = {
  'job-posting': '求人掲載のお問い合わせ',
  'partner-application': 'パートナープログラムへのお申し込み',
};

/** What the sender of an inquiry typed, as kept: the staff list and the staff mail show it. */
export type InquiryFields = {
  kind: InquiryKind;
  company: string;
  name: string;
  email: string;
  phone: string | null;
  website: string | null;
  companySize: string | null;
  plan: string | null;
  message: string | null;
};

export const INQUIRY_COMPANY_MAX = 100;
export const INQUIRY_NAME_MAX = 100;
export const INQUIRY_PHONE_MAX = 20;
export const INQUIRY_WEBSITE_MAX = 500;
export const INQUIRY_MESSAGE_MAX = 4000;
