import 'server-only';
import { env } from '@/env';
import type { Mail } from './mailer';

/**
 * The site's mails, in Japanese, as plain text and HTML with the same content. Each returns
 * a Mail without its recipient's address filled in by the caller.
 */

type Content = {
  kind: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  note?: string;
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

function render(to: string, content: Content): Mail {
  const { SITE_NAME, SITE_URL } = env();
  const subject = `【${SITE_NAME}】${content.subject}`;
  const footer = [
    `${SITE_NAME}`,
    SITE_URL,
    'このメールは送信専用です。ご返信いただいてもお答えできません。',
  ];
  const text = [
    content.greeting,
    '',
    ...content.paragraphs.flatMap((p) => [p, '']),
    ...(content.action ? [`${content.action.label}:`, content.action.url, ''] : []),
    ...(content.note ? [content.note, ''] : []),
    '――',
    ...footer,
  ].join('\n');
  const button = content.action
    ? `<p style="margin:32px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 24px;background:#ebff00;color:#111;font-weight:700;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="font-size:13px;color:#555">ボタンが使えない場合は、次の URL をブラウザに貼り付けてください。<br><span style="word-break:break-all">${escapeHtml(content.action.url)}</span></p>`
    : '';
  const html = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:32px 16px;background:#fff;color:#111;font-family:'Hiragino Sans','Noto Sans JP',sans-serif;line-height:1.9">
<div style="max-width:560px;margin:0 auto">
<p style="font-weight:700;letter-spacing:.08em">${escapeHtml(SITE_NAME)}</p>
<p>${escapeHtml(content.greeting)}</p>
${content.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${button}
${content.note ? `<p style="font-size:13px;color:#555">${escapeHtml(content.note)}</p>` : ''}
<hr style="border:none;border-top:1px solid #ddd;margin:32px 0">
<p style="font-size:12px;color:#555">${footer.map(escapeHtml).join('<br>')}</p>
</div></body></html>`;
  return { to, subject, text, html, kind: content.kind };
}

const dear = (name: string) => `${name} 様`;
const IGNORE = 'このメールに心当たりがない場合は、何もせずに破棄してください。';

export const mails = {
  verifyEmail: (to: string, name: string, url: string) =>
    render(to, {
      kind: 'verify-email',
      subject: 'メールアドレスの確認',
      greeting: dear(name),
      paragraphs: [
        '会員登録のお申し込みありがとうございます。',
        '下のボタンからメールアドレスを確認すると、登録が完了してログインできるようになります。リンクの有効期限は 24 時間です。',
      ],
      action: { label: 'メールアドレスを確認する', url },
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

  resetPassword: (to: string, name: string, url: string) =>
    render(to, {
      kind: 'reset-password',
      subject: 'パスワード再設定のご案内',
      greeting: dear(name),
      paragraphs: [
        'パスワード再設定のお申し込みを受け付けました。',
        '下のボタンから新しいパスワードを設定してください。リンクの有効期限は 1 時間で、1 回だけ使えます。再設定すると、ほかの端末ではログアウトされます。',
      ],
      action: { label: 'パスワードを再設定する', url },
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

  changeEmailVerify: (to: string, name: string, url: string) =>
    render(to, {
      kind: 'change-email',
      subject: '新しいメールアドレスの確認',
      greeting: dear(name),
      paragraphs: [
        'メールアドレス変更のお申し込みを受け付けました。',
        '下のボタンを押すと、このアドレスへの変更が完了します。リンクの有効期限は 24 時間です。押すまでは、これまでのアドレスのままです。',
      ],
      action: { label: 'メールアドレスを変更する', url },
      note: IGNORE,
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
