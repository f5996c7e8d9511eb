import 'server-only';
import { env } from '@/env';
import type { MailKind } from './kinds';
import type { Mail } from './mail';
import { formatDateJa, formatDateTime } from '@/lib/format';
import { INQUIRY_KIND_LABELS, type InquiryFields } from '@/lib/inquiries';
import { escapeHtml } from '@/lib/text/escape-html';

/**
 * The site's mails, in Japanese, as plain text and HTML with the same content. Each returns
 * a Mail without its recipient's address filled in by the caller.
 */

/**
 * A link that carries a token (password reset, address verification): whoever reads it can act
 * as the account, so the mail is marked secret here, where the link is put in, never guessed later.
 */
export type TokenLink = {
  url: string;
  /** The account the token acts for. */
  userId: string;
  /** How long the token works (auth.ts): the kept copy loses the link then. */
  lifetimeSeconds: number;
};

/** The kinds of the mails that carry a TokenLink (auth.ts removes their links once spent). */
export const TOKEN_MAIL_KINDS = {
  verifyEmail: 'verify-email',
  changeEmail: 'change-email',
  resetPassword: 'reset-password',
  signInLink: 'sign-in-link',
} as const satisfies Record<string, MailKind>;

/** What is left of a token link in a kept mail once it is used or expired. */
export const LINK_REMOVED_NOTE = 'このリンクは使用済みまたは期限切れのため削除されました。';

/**
 * Where a paragraph names the action: the HTML mail has a button below, the plain-text one a
 * URL after the text, so each says what its reader sees.
 */
const ACTION_PLACE = '{action}';
const ACTION_PLACE_IN = { html: '下のボタン', text: '下の URL' } as const;

type Content = {
  kind: MailKind;
  subject: string;
  greeting: string;
  /** May name the action with `{action}` (「下のボタン」 in HTML, 「下の URL」 in text). */
  paragraphs: string[];
  action?: { label: string; url: string } | { label: string; token: TokenLink };
  note?: string;
};

/** `1 時間`, `24 時間`, `30 分`: said in the mail the same as auth.ts sets it. */
export function lifetimeText(seconds: number): string {
  return seconds % 3600 === 0 ? `${seconds / 3600} 時間` : `${Math.ceil(seconds / 60)} 分`;
}

const fullSubject = (content: Content) => `【${env().SITE_NAME}】${content.subject}`;

/** The mail's text and HTML; `url` null renders the action without its link (the kept copy). */
function compose(content: Content, url: string | null): { text: string; html: string } {
  const { SITE_NAME, SITE_URL } = env();
  const subject = fullSubject(content);
  const footer = [
    `${SITE_NAME}`,
    SITE_URL,
    'このメールは送信専用です。ご返信いただいてもお答えできません。',
  ];
  const action = content.action;
  const paragraphs = (medium: keyof typeof ACTION_PLACE_IN) =>
    content.paragraphs.map((p) => p.replaceAll(ACTION_PLACE, ACTION_PLACE_IN[medium]));
  const text = [
    content.greeting,
    '',
    ...paragraphs('text').flatMap((p) => [p, '']),
    ...(action ? [`${action.label}:`, url ?? `（${LINK_REMOVED_NOTE}）`, ''] : []),
    ...(content.note ? [content.note, ''] : []),
    '――',
    ...footer,
  ].join('\n');
  const button = !action
    ? ''
    : url === null
      ? `<p style="margin:32px 0;font-size:13px;color:#555">${escapeHtml(action.label)}: ${escapeHtml(LINK_REMOVED_NOTE)}</p>`
      : `<p style="margin:32px 0"><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 24px;background:#ebff00;color:#111;font-weight:700;text-decoration:none">${escapeHtml(action.label)}</a></p>
<p style="font-size:13px;color:#555">ボタンが使えない場合は、次の URL をブラウザに貼り付けてください。<br><span style="word-break:break-all">${escapeHtml(url)}</span></p>`;
  const html = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:32px 16px;background:#fff;color:#111;font-family:'Hiragino Sans','Noto Sans JP',sans-serif;line-height:1.9">
<div style="max-width:560px;margin:0 auto">
<p style="font-weight:700;letter-spacing:.08em">${escapeHtml(SITE_NAME)}</p>
<p>${escapeHtml(content.greeting)}</p>
${paragraphs('html')
  .map((p) => `<p>${escapeHtml(p)}</p>`)
  .join('\n')}
${button}
${content.note ? `<p style="font-size:13px;color:#555">${escapeHtml(content.note)}</p>` : ''}
<hr style="border:none;border-top:1px solid #ddd;margin:32px 0">
<p style="font-size:12px;color:#555">${footer.map(escapeHtml).join('<br>')}</p>
</div></body></html>`;
  return { text, html };
}

function render(to: string, content: Content): Mail {
  const subject = fullSubject(content);
  const action = content.action;
  if (!action || 'url' in action)
    return {
      to,
      subject,
      ...compose(content, action?.url ?? null),
      kind: content.kind,
      secret: null,
    };
  const { url, userId, lifetimeSeconds } = action.token;
  return {
    to,
    subject,
    ...compose(content, url),
    kind: content.kind,
    secret: {
      userId,
      expiresAt: new Date(Date.now() + lifetimeSeconds * 1000),
      redacted: compose(content, null),
    },
  };
}

const dear = (name: string) => `${name} 様`;
const IGNORE = 'このメールに心当たりがない場合は、何もせずに破棄してください。';

export const mails = {
  verifyEmail: (to: string, name: string, token: TokenLink) =>
    render(to, {
      kind: TOKEN_MAIL_KINDS.verifyEmail,
      subject: 'メールアドレスの確認',
      greeting: dear(name),
      paragraphs: [
        '会員登録のお申し込みありがとうございます。',
        `{action}からメールアドレスを確認すると、登録が完了してログインできるようになります。リンクの有効期限は ${lifetimeText(token.lifetimeSeconds)}です。`,
      ],
      action: { label: 'メールアドレスを確認する', token },
      note: IGNORE,
    }),

  /** To an address that is already registered: sign-up must not tell anyone else that. */
  alreadyRegistered: (to: string, loginUrl: string, resetUrl: string) =>
    render(to, {
      kind: 'already-registered',
      subject: '会員登録のお申し込みについて',
      greeting: 'ご利用ありがとうございます。',
      paragraphs: [
        'このメールアドレスで会員登録のお申し込みがありましたが、このアドレスはすでに登録されています。',
        `ご本人のお申し込みであれば、ログインしてご利用ください（${loginUrl}）。パスワードをお忘れの場合は再設定できます。`,
      ],
      action: { label: 'パスワードを再設定する', url: resetUrl },
      note: IGNORE,
    }),

  resetPassword: (to: string, name: string, token: TokenLink) =>
    render(to, {
      kind: TOKEN_MAIL_KINDS.resetPassword,
      subject: 'パスワード再設定のご案内',
      greeting: dear(name),
      paragraphs: [
        'パスワード再設定のお申し込みを受け付けました。',
        `{action}から新しいパスワードを設定してください。リンクの有効期限は ${lifetimeText(token.lifetimeSeconds)}で、1 回だけ使えます。再設定すると、ほかの端末ではログアウトされます。`,
      ],
      action: { label: 'パスワードを再設定する', token },
      note: IGNORE,
    }),

  passwordChanged: (to: string, name: string) =>
    render(to, {
      kind: 'password-changed',
      subject: 'パスワードを変更しました',
      greeting: dear(name),
      paragraphs: [
        'アカウントのパスワードが変更されました。すべての端末でログアウトしています。',
        'お心当たりがない場合は、すぐにパスワードを再設定し、お問い合わせフォームからご連絡ください。',
      ],
    }),

  /** A first password set on an account that had none (the account page). */
  passwordSet: (to: string, name: string) =>
    render(to, {
      kind: 'password-set',
      subject: 'パスワードを設定しました',
      greeting: dear(name),
      paragraphs: [
        'アカウントにパスワードが設定されました。これからは、メールアドレスとパスワードでもログインできます。',
        'お心当たりがない場合は、すぐにパスワードを再設定し、お問い合わせフォームからご連絡ください。',
      ],
    }),

  changeEmailVerify: (to: string, name: string, token: TokenLink) =>
    render(to, {
      kind: TOKEN_MAIL_KINDS.changeEmail,
      subject: '新しいメールアドレスの確認',
      greeting: dear(name),
      paragraphs: [
        'メールアドレス変更のお申し込みを受け付けました。',
        `{action}から確認すると、このアドレスへの変更が完了します。リンクの有効期限は ${lifetimeText(token.lifetimeSeconds)}です。確認するまでは、これまでのアドレスのままです。`,
      ],
      action: { label: 'メールアドレスを変更する', token },
      note: IGNORE,
    }),

  /** The password-free sign-in (src/server/features/account/sign-in-link.ts): one use, short-lived. */
  signInLink: (to: string, name: string, token: TokenLink) =>
    render(to, {
      kind: TOKEN_MAIL_KINDS.signInLink,
      subject: 'ログイン用のリンク',
      greeting: dear(name),
      paragraphs: [
        'ログイン用のリンクをお送りします。',
        `{action}を開くと、パスワードなしでログインできます。リンクの有効期限は ${lifetimeText(token.lifetimeSeconds)}で、1 回だけ使えます。`,
        'このリンクを他の人に転送しないでください。開いた人があなたとしてログインできます。',
      ],
      action: { label: 'ログインする', token },
      note: IGNORE,
    }),

  /**
   * A visitor paid with this address and an account was made from it (a guest checkout,
   * src/server/features/billing/guest-checkout.ts): the sign-in link confirms the address, so the
   * account is the mailbox's from then on. Its kind is the sign-in link's: spent and removed alike.
   */
  paidSignInLink: (to: string, name: string, plan: string, token: TokenLink) =>
    render(to, {
      kind: TOKEN_MAIL_KINDS.signInLink,
      subject: 'お申し込みありがとうございます（メールアドレスの確認）',
      greeting: dear(name),
      paragraphs: [
        `${plan}のお申し込みを受け付け、このメールアドレスでアカウントを作成しました。`,
        `{action}を開くと、メールアドレスの確認が済み、ほかの端末からもログインできるようになります。リンクの有効期限は ${lifetimeText(token.lifetimeSeconds)}で、1 回だけ使えます。期限が切れたときは、ログイン画面の「ログインリンクを送る」から新しいリンクを受け取れます。`,
        'パスワードは、ログイン後にアカウントのページで設定できます（設定しなくても、ログイン用のリンクでログインできます）。',
        'このリンクを他の人に転送しないでください。開いた人があなたとしてログインできます。',
      ],
      action: { label: 'メールアドレスを確認してログインする', token },
      note: 'お申し込みに心当たりがない場合は、このメールを破棄し、お問い合わせフォームからご連絡ください。',
    }),

  /**
   * Asked for a sign-in link with an address that has no account: the one who asked sees the
   * same answer as for a member (no account enumeration); the mailbox's owner is told why no
   * link came and where to sign up.
   */
  signInLinkNoAccount: (to: string, signUpUrl: string) =>
    render(to, {
      kind: 'sign-in-link-no-account',
      subject: 'ログインのお申し込みについて',
      greeting: 'ご利用ありがとうございます。',
      paragraphs: [
        'このメールアドレスでログイン用リンクのお申し込みがありましたが、このアドレスで登録された会員はいません。',
        '別のメールアドレスでご登録の場合は、そのアドレスでもう一度お申し込みください。はじめての方は、{action}から会員登録（無料）ができます。',
      ],
      action: { label: '会員登録する', url: signUpUrl },
      note: IGNORE,
    }),

  /** The footer's newsletter subscription (double opt-in): its link leads to the confirmation. */
  newsletterConfirm: (to: string, url: string, lifetimeSeconds: number) =>
    render(to, {
      kind: 'newsletter-confirm',
      subject: 'ニュースレター登録の確認',
      greeting: 'ご利用ありがとうございます。',
      paragraphs: [
        'このメールアドレスで、ニュースレターの受け取りのお申し込みがありました。',
        `{action}を開き、「登録を完了する」を押すと配信が始まります。まだ会員でない方は、無料会員として登録されます。リンクの有効期限は ${lifetimeText(lifetimeSeconds)}で、1 回だけ使えます。`,
      ],
      action: { label: 'ニュースレターの登録を確認する', url },
      note: 'お申し込みに心当たりがない場合は、このメールを破棄してください。登録も配信も行われません。',
    }),

  /** To the old address when a change is asked for. */
  changeEmailNotice: (to: string, name: string) =>
    render(to, {
      kind: 'change-email-notice',
      subject: 'メールアドレス変更のお申し込み',
      greeting: dear(name),
      paragraphs: [
        'アカウントのメールアドレスを別のアドレスに変更するお申し込みがありました。新しいアドレスで確認が済むと変更されます。',
        'お心当たりがない場合は、すぐにパスワードを再設定し、お問い合わせフォームからご連絡ください。',
      ],
    }),

  accountDeleted: (to: string, name: string) =>
    render(to, {
      kind: 'account-deleted',
      subject: '退会手続きが完了しました',
      greeting: dear(name),
      paragraphs: [
        '退会の手続きが完了し、アカウントと登録情報を削除しました。これまでのご利用ありがとうございました。',
        'お支払いの記録は、法令で定められた期間、個人を特定できない形で保管します。',
      ],
    }),
};

/** What the contact form's mails say about one message (src/server/features/contact). */
export type ContactMailDetails = {
  name: string;
  email: string;
  subject: string;
  message: string;
  receivedAt: Date;
  /** The sender's account, when they were signed in. */
  userId: string | null;
};

const tokyoDateTime = (date: Date) =>
  new Intl.DateTimeFormat('ja-JP', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'Asia/Tokyo',
  }).format(date);

/** A mail to staff about something a visitor sent through a form: its facts, then its text. */
type StaffNotice = {
  kind: MailKind;
  /** After 【SITE_NAME】. */
  subject: string;
  /** The first line: which form it came from. */
  lead: string;
  facts: [string, string][];
  message: string | null;
  /** Where staff see all of them, once that screen exists. */
  list?: { label: string; path: string };
};

/**
 * sendMail has no Reply-To, so the sender's address is in the facts, and the message keeps its
 * line breaks in the HTML part too.
 */
function staffNotice(to: string, notice: StaffNotice): Mail {
  const { SITE_NAME, SITE_URL } = env();
  const subject = `【${SITE_NAME}】${notice.subject}`;
  const list = notice.list && { ...notice.list, url: `${SITE_URL}${notice.list.path}` };
  const replyNote =
    'このメールに返信しても送信者には届きません。返信は上記のメールアドレス宛てにお送りください。';
  const text = [
    notice.lead,
    '',
    ...notice.facts.map(([label, value]) => `${label}：${value}`),
    '',
    ...(notice.message !== null ? ['――お問い合わせ内容――', notice.message, '――', ''] : []),
    replyNote,
    ...(list ? [`${list.label}: ${list.url}`] : []),
    '',
    '――',
    SITE_NAME,
    SITE_URL,
  ].join('\n');
  const html = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:32px 16px;background:#fff;color:#111;font-family:'Hiragino Sans','Noto Sans JP',sans-serif;line-height:1.9">
<div style="max-width:560px;margin:0 auto">
<p style="font-weight:700;letter-spacing:.08em">${escapeHtml(SITE_NAME)}</p>
<table style="border-collapse:collapse;margin:16px 0">
${notice.facts.map(([label, value]) => `<tr><th style="text-align:left;padding:4px 16px 4px 0;white-space:nowrap;vertical-align:top">${escapeHtml(label)}</th><td style="padding:4px 0;word-break:break-all">${escapeHtml(value)}</td></tr>`).join('\n')}
</table>
${notice.message !== null ? `<div style="white-space:pre-wrap;word-break:break-word;padding:16px;background:#f5f5f3">${escapeHtml(notice.message)}</div>` : ''}
<p style="font-size:13px;color:#555">${escapeHtml(`${notice.lead}${replyNote}`)}</p>
${list ? `<p><a href="${escapeHtml(list.url)}" style="color:#111">${escapeHtml(list.label)}</a></p>` : ''}
<hr style="border:none;border-top:1px solid #ddd;margin:32px 0">
<p style="font-size:12px;color:#555">${escapeHtml(SITE_NAME)}<br>${escapeHtml(SITE_URL)}</p>
</div></body></html>`;
  return { to, subject, text, html, kind: notice.kind, secret: null };
}

const signedInFact = (userId: string | null): [string, string] => [
  '会員',
  userId ? `ログイン中の会員（ID: ${userId}）` : '未ログイン',
];

/** To the staff address (CONTACT_TO). */
export function contactReceived(to: string, details: ContactMailDetails): Mail {
  return staffNotice(to, {
    kind: 'contact-received',
    subject: `お問い合わせ：${details.subject}`,
    lead: 'お問い合わせフォームから新しいメッセージが届きました。',
    facts: [
      ['受付日時', tokyoDateTime(details.receivedAt)],
      ['お名前', details.name],
      ['メールアドレス', details.email],
      ['種類', details.subject],
      signedInFact(details.userId),
    ],
    message: details.message,
    list: { label: '受け付けたお問い合わせの一覧', path: '/admin/contact' },
  });
}

/**
 * To the sender. Anyone can type any address into the form, so this mail repeats nothing the
 * sender typed (name, message): it cannot carry someone else's text to a stranger's inbox.
 */
export function contactAcknowledged(
  to: string,
  details: Pick<ContactMailDetails, 'subject' | 'receivedAt'>,
): Mail {
  return render(to, {
    kind: 'contact-acknowledged',
    subject: 'お問い合わせを受け付けました',
    greeting: 'お問い合わせいただき、ありがとうございます。',
    paragraphs: [
      `${tokyoDateTime(details.receivedAt)}に、「${details.subject}」のお問い合わせを受け付けました。`,
      '内容を確認のうえ、担当者からこのメールアドレス宛てにご連絡します。お返事まで数営業日いただくことがあります。あらかじめご了承ください。',
    ],
    note: 'このメールに心当たりがない場合は、どなたかがメールアドレスを誤って入力した可能性があります。お手数ですが、このメールを破棄してください。',
  });
}

/** What the inquiry forms' mails say about one inquiry (src/server/features/inquiries). */
export type InquiryMailDetails = InquiryFields & { receivedAt: Date; userId: string | null };

/** To the staff address (CONTACT_TO): a new inquiry from /jobs/about/contact or /biz/request. */
export function inquiryReceived(to: string, details: InquiryMailDetails): Mail {
  const title = INQUIRY_KIND_LABELS[details.kind];
  const optional: [string, string | null][] = [
    ['電話番号', details.phone],
    ['ウェブサイト', details.website],
    ['従業員数', details.companySize],
    ['ご関心のあるプラン', details.plan],
  ];
  return staffNotice(to, {
    kind: `${details.kind}-received`,
    subject: `${title}：${details.company}`,
    lead: `${details.kind === 'job-posting' ? '求人掲載のお問い合わせフォーム' : 'パートナープログラムの申し込みフォーム'}から新しい${details.kind === 'job-posting' ? 'お問い合わせ' : 'お申し込み'}が届きました。`,
    facts: [
      ['受付日時', tokyoDateTime(details.receivedAt)],
      ['会社名', details.company],
      ['ご担当者', details.name],
      ['メールアドレス', details.email],
      ...optional.filter((fact): fact is [string, string] => fact[1] !== null),
      signedInFact(details.userId),
    ],
    message: details.message,
    list: { label: '申し込み・問い合わせの一覧', path: '/biz/axis-admin#inquiries' },
  });
}

/**
 * To the sender. As with contactAcknowledged, it repeats nothing the sender typed (company,
 * name, message): anyone can type any address into the form.
 */
export function inquiryAcknowledged(
  to: string,
  details: Pick<InquiryMailDetails, 'kind' | 'receivedAt'>,
): Mail {
  const when = tokyoDateTime(details.receivedAt);
  return details.kind === 'job-posting'
    ? render(to, {
        kind: 'job-posting-acknowledged',
        subject: '求人掲載のお問い合わせを受け付けました',
        greeting: 'お問い合わせいただき、ありがとうございます。',
        paragraphs: [
          `${when}に、求人掲載についてのお問い合わせを受け付けました。`,
          '内容を確認のうえ、担当者からこのメールアドレス宛てに、掲載の条件と料金をご案内します。お返事まで数営業日いただくことがあります。あらかじめご了承ください。',
        ],
        note: 'このメールに心当たりがない場合は、どなたかがメールアドレスを誤って入力した可能性があります。お手数ですが、このメールを破棄してください。',
      })
    : render(to, {
        kind: 'partner-application-acknowledged',
        subject: 'パートナープログラムへのお申し込みを受け付けました',
        greeting: 'お申し込みいただき、ありがとうございます。',
        paragraphs: [
          `${when}に、パートナープログラムへのお申し込みを受け付けました。`,
          '担当者がお申し込みの内容を確認し、このメールアドレス宛てに、ご契約の条件と今後の流れをご案内します。お返事まで数営業日いただくことがあります。あらかじめご了承ください。',
          `プログラムの内容は、パートナープログラムのご案内（${env().SITE_URL}/biz/about）でもご覧いただけます。`,
        ],
        note: 'このメールに心当たりがない場合は、どなたかがメールアドレスを誤って入力した可能性があります。お手数ですが、このメールを破棄してください。',
      });
}

/** The billing mails (src/server/features/billing/notifications.ts sends each once). */
export const billingMails = {
  welcome: (
    to: string,
    name: string,
    plan: { name: string; price: string; trialEnd: Date | null; renewsAt: Date | null },
  ) =>
    render(to, {
      kind: 'billing-welcome',
      subject: `${plan.name}へのお申し込みありがとうございます`,
      greeting: dear(name),
      paragraphs: [
        `${plan.name}（${plan.price}）のお申し込みを受け付けました。今日から「有料会員限定」を含むすべての記事・音声・動画をお楽しみいただけます。`,
        plan.trialEnd
          ? `無料体験は ${formatDateJa(plan.trialEnd)} までです。その日に初回分を決済し、以後は自動で更新されます。体験期間中に解約すれば料金はかかりません。`
          : `次回の更新日は ${plan.renewsAt ? formatDateJa(plan.renewsAt) : '未定'} です。解約の手続きがない限り、自動で更新されます。`,
        'プランの変更・解約・お支払い方法の変更は、料金プランのページの「プランの管理」からいつでもできます。',
      ],
      action: { label: 'プランの管理', url: `${env().SITE_URL}/service-plans` },
    }),

  receipt: (
    to: string,
    name: string,
    receipt: { number: string; total: string; tax: string; paidAt: Date; url: string },
  ) =>
    render(to, {
      kind: 'billing-receipt',
      subject: 'お支払いありがとうございます（領収書）',
      greeting: dear(name),
      paragraphs: [
        `${formatDateJa(receipt.paidAt)}に ${receipt.total}（うち消費税 ${receipt.tax}）をお支払いいただきました。請求書番号：${receipt.number}`,
        '領収書は{action}から表示・印刷できます。',
      ],
      action: { label: '領収書を表示する', url: receipt.url },
    }),

  /**
   * A konbini payment's voucher (docs/decisions/053-one-time-payments.md): what was bought (or
   * tipped), the amount, the deadline and the provider's voucher page with the payment numbers.
   */
  konbiniVoucher: (
    to: string,
    name: string,
    voucher: { title: string; total: string; expiresAt: Date; url: string; tip?: boolean },
  ) =>
    render(to, {
      kind: 'billing-konbini-voucher',
      subject: '【お支払いのお願い】コンビニでのお支払い番号のお知らせ',
      greeting: dear(name),
      paragraphs: [
        voucher.tip
          ? `記事「${voucher.title}」へのチップ（${voucher.total}、税込）のお支払い番号を発行しました。`
          : `「${voucher.title}」のご購入（${voucher.total}、税込）のお支払い番号を発行しました。`,
        `${formatDateTime(voucher.expiresAt)}までに、{action}に記載のコンビニでお支払いください。お支払いが確認でき次第、${voucher.tip ? 'チップを編集部にお届けします' : '記事を全文お読みいただけます'}。`,
        `期限までにお支払いがない場合、${voucher.tip ? 'チップ' : 'ご購入'}は取り消されます（お支払いは発生しません）。`,
      ],
      action: { label: 'お支払い番号を表示する', url: voucher.url },
    }),

  paymentFailed: (to: string, name: string, failed: { total: string; nextAttempt: Date | null }) =>
    render(to, {
      kind: 'billing-payment-failed',
      subject: '【ご確認ください】プラン更新のお支払いができませんでした',
      greeting: dear(name),
      paragraphs: [
        `登録されているカードで ${failed.total} の決済ができませんでした。カードの有効期限や利用限度額をご確認ください。`,
        failed.nextAttempt
          ? `${formatDateJa(failed.nextAttempt)}に自動で再度決済します。それまでにカードを変更していただくと、その場で決済し直します。`
          : 'このまま決済できない場合、プランは解約されます。',
        'お支払いが確認できるまでの間も、「有料会員限定」の記事・音声・動画はこれまでどおりご利用いただけます。',
      ],
      action: { label: 'カードを変更する', url: `${env().SITE_URL}/service-plans` },
    }),

  /**
   * A renewal's charge waits for the cardholder's 3-D Secure authentication (Stripe's
   * `invoice.payment_action_required`). A transactional mail (特定電子メール法 does not apply), from
   * the site as every mail is. The link is the account page, which the reader reaches signed in
   * and whose notice leads to the card issuer's page: a mail never asks for card details itself.
   */
  authenticationRequired: (
    to: string,
    name: string,
    payment: { planName: string; total: string; nextAttempt: Date | null },
  ) =>
    render(to, {
      kind: 'billing-authentication-required',
      subject: '【ご確認ください】プラン更新のお支払いに本人認証が必要です',
      greeting: dear(name),
      paragraphs: [
        `${payment.planName || '有料プラン'}の更新のお支払い（${payment.total}）に、カード発行会社による本人認証（3Dセキュア）が必要です。認証が済むまで、お支払いは完了しません。`,
        '{action}からアカウントのページを開き（ログインが必要です）、お知らせの「本人認証を行う」から認証を済ませてください。',
        payment.nextAttempt
          ? `${formatDateJa(payment.nextAttempt)}にもう一度決済しますが、そのときも認証が必要です。認証が済まないままお支払いの期限を過ぎると、プランは終了します。`
          : '認証が済まないままお支払いの期限を過ぎると、プランは終了します。',
        'お支払いが確認できるまでの間も、「有料会員限定」の記事・音声・動画はこれまでどおりご利用いただけます。',
      ],
      action: { label: '本人認証に進む', url: `${env().SITE_URL}/account` },
      note: '当サイトがメールでカード番号をお尋ねすることはありません。本人認証は、アカウントのページのお知らせから開くカード発行会社の画面で行います。',
    }),

  trialEnding: (
    to: string,
    name: string,
    trial: { planName: string; price: string; endsAt: Date },
  ) =>
    render(to, {
      kind: 'billing-trial-ending',
      subject: '無料体験はまもなく終了します',
      greeting: dear(name),
      paragraphs: [
        `${trial.planName}の無料体験は ${formatDateJa(trial.endsAt)} に終了し、その日に ${trial.price} を決済します。`,
        '続けてご利用いただく場合、お手続きは不要です。ご利用を続けない場合は、終了日までに料金プランのページの「プランの管理」から解約してください。',
      ],
      action: { label: 'プランの管理', url: `${env().SITE_URL}/service-plans` },
    }),

  cancellationConfirmed: (to: string, name: string, plan: { name: string; endsAt: Date | null }) =>
    render(to, {
      kind: 'billing-cancellation',
      subject: '解約を受け付けました',
      greeting: dear(name),
      paragraphs: [
        plan.endsAt
          ? `${plan.name}の解約を受け付けました。${formatDateJa(plan.endsAt)} まではこれまでどおりお読みいただけます。それ以降の請求はありません。`
          : `${plan.name}の解約を受け付けました。以後の請求はありません。`,
        '終了日までであれば、料金プランのページの「プランの管理」から解約を取り消せます。',
      ],
      action: { label: 'プランの管理', url: `${env().SITE_URL}/service-plans` },
    }),

  duplicateReversed: (
    to: string,
    name: string,
    plans: { reversedPlan: string; keptPlan: string; refunded: string | null },
  ) =>
    render(to, {
      kind: 'billing-duplicate-reversed',
      subject: '重複したお申し込みを取り消しました',
      greeting: dear(name),
      paragraphs: [
        `すでに${plans.keptPlan || '有料プラン'}をご利用中のため、あとからお申し込みいただいた${plans.reversedPlan || 'プラン'}は取り消しました。有料プランはおひとりにつきひとつです。`,
        plans.refunded
          ? `お支払いいただいた ${plans.refunded} は全額返金しました。カード会社によっては、ご利用明細に反映されるまで数日から数週間かかります。`
          : 'このお申し込みで請求はしていません。',
        `${plans.keptPlan || 'ご利用中のプラン'}はこれまでどおり続きます。プランの変更は料金プランのページの「プランの管理」からお手続きください。`,
      ],
      action: { label: 'プランの管理', url: `${env().SITE_URL}/service-plans` },
    }),
};

/** The job-listing review mails (src/server/features/partners/jobs/listings.ts): to staff, then to the partner. */
export const listingMails = {
  /** To the staff address (CONTACT_TO): a partner submitted a listing for review. */
  submitted: (
    to: string,
    details: { partnerId: string; partnerName: string; listingId: string; title: string },
  ): Mail =>
    render(to, {
      kind: 'listing-submitted',
      subject: `求人の審査依頼：${details.title}`,
      greeting: 'パートナー企業から求人が審査に提出されました。',
      paragraphs: [
        `企業：${details.partnerName}`,
        `求人：${details.title}`,
        `内容を確認し、${ACTION_PLACE}から承認または差し戻しを行ってください。`,
      ],
      action: {
        label: '審査する',
        url: `${env().SITE_URL}/biz/axis-admin/${details.partnerId}#listing-${details.listingId}`,
      },
    }),
  /** To each member of the partner: the listing was approved (and is on /jobs) or returned. */
  reviewed: (
    to: string,
    details: {
      listingId: string;
      title: string;
      decision: 'approve' | 'return';
      comment: string | null;
    },
  ): Mail =>
    details.decision === 'approve'
      ? render(to, {
          kind: 'listing-approved',
          subject: `求人を公開しました：${details.title}`,
          greeting: '求人の審査が完了しました。',
          paragraphs: [
            `「${details.title}」を承認し、求人一覧に公開しました。${ACTION_PLACE}から掲載中のページをご覧いただけます。`,
            '閲覧数と応募クリック数は、パートナー管理画面で確認できます。',
          ],
          action: { label: '求人ページを見る', url: `${env().SITE_URL}/jobs/${details.listingId}` },
        })
      : render(to, {
          kind: 'listing-returned',
          subject: `求人が差し戻されました：${details.title}`,
          greeting: '求人の審査が完了しました。',
          paragraphs: [
            `「${details.title}」は、次の理由で差し戻されました。内容を修正のうえ、もう一度審査に提出してください。`,
            `差し戻しの理由：${details.comment ?? ''}`,
            `${ACTION_PLACE}から求人を編集できます。`,
          ],
          action: {
            label: '求人を編集する',
            url: `${env().SITE_URL}/jobs/post?listing=${details.listingId}`,
          },
        }),
};
