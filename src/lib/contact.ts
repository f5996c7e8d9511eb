/** The contact form's choices and limits, shared by the server's rules and the form's hints. */

export const CONTACT_SUBJECTS = [
  '記事・コンテンツについて',
  '会員登録・ログインについて',
  '料金プラン・お支払いについて',
  '法人・広告・求人掲載について',
  'その他',
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

export const CONTACT_NAME_MAX = 100;
export const CONTACT_MESSAGE_MAX = 4000;
