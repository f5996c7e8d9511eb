import 'server-only';
import { env } from '@/env';
import { formatDateJa } from '@/lib/format';
import { escapeHtml } from '@/lib/text/escape-html';
import { postFor, type Viewer } from '@/lib/access/post-access';
import type { Post } from '@/server/features/content';
import { type Operator, operatorOf } from '@/server/features/operator';
import {
  LETTER_COLORS,
  LETTER_FONT,
  RULE_HTML,
  absoluteUrl,
  letterBody,
  tidyText,
} from './letter-body';

/**
 * One newsletter letter: a post as e-mail, for one reader (docs/decisions/025-newsletter-consent.md).
 *
 * - **What the reader gets is the access policy's decision**, never one made here: a paid
 *   letter is what a paid member reads on the site, a free letter exactly what a signed-in free
 *   member reads there (`postFor` in src/lib/access/post-access.ts, with the site's free-plan
 *   list at send time: the whole of a public-preview post or of one the free plan opens, with a
 *   line saying why; otherwise the part above the members' divider, followed by
 *   「続きはサイトで読む」).
 * - HTML and plain text with the same content; the HTML is one column at most 600 px wide with
 *   every style inline (mail clients drop style sheets), Japanese fonts, colours that survive
 *   a client's dark mode, every URL absolute.
 * - The footer carries what 特定電子メール法 (第4条, 施行規則第9条) asks of every letter: the
 *   sender's name, a statement that the reader can refuse further letters and where (the
 *   unsubscribe URL), the sender's postal address, and a contact for complaints and questions;
 *   and why this reader gets it.
 *
 * Pure: no database. The unsubscribe URL and the post's URL (with its open parameter) are the
 * caller's.
 */

export type LetterAudience = 'paid' | 'free';

/** The fields of a post a letter shows. */
export type LetterPost = Pick<
  Post,
  'id' | 'title' | 'isPublicPreview' | 'description' | 'coverImage' | 'body' | 'publishedAt'
> & { writers?: readonly { name: string }[] };

/** Who sends the letter, as the 特定商取引法 page names the operator. */
export type LetterSender = {
  siteName: string;
  siteUrl: string;
  operator: Pick<Operator, 'name' | 'address' | 'email'>;
};

export type LetterInput = {
  item: LetterPost;
  audience: LetterAudience;
  recipient: { name: string; email: string };
  unsubscribeUrl: string;
  postUrl: string;
  /**
   * The site's free-plan list (`getFreePlanPostIds`) when the letter is made: the policy opens
   * a members' post in it to a free member, in the letter as on the site.
   */
  freePlanPostIds: readonly string[];
  /** Defaults to the site's settings (SITE_NAME, SITE_URL, OPERATOR_*). */
  sender?: LetterSender;
  /**
   * The letter counts opens and clicks (tracking.ts rewrites it after): the footer says so and
   * where to stop it. False: a reader who turned tracking off.
   */
  tracked?: boolean;
};

export type Letter = { subject: string; html: string; text: string };

/** Where the footer starts: tracking.ts never rewrites a link below it. */
export const FOOTER_MARK = '<!--letter-footer-->';

export const READ_MORE_LABEL = '続きはサイトで読む';
const READ_ON_SITE_LABEL = 'サイトで読む';

/**
 * The viewer whose page each audience's letter is: the policy then decides what it holds. Every
 * recipient has an account (a verified address that asked for the letter), so a free letter is
 * a signed-in free member's page, not a signed-out visitor's.
 */
const VIEWER_OF: Readonly<Record<LetterAudience, Viewer>> = {
  paid: { kind: 'member', paid: true },
  free: { kind: 'member', paid: false },
};

/** Why a free member's letter holds the whole of a members' post (the site's FreePlanNote). */
export const FREE_PLAN_LETTER_NOTE =
  'この記事は、無料会員の方もお読みいただける最新の会員限定記事のひとつです。新しい会員限定記事が公開されると、サイトで全文をお読みいただけるのは有料会員の方に限られます。';

export function defaultLetterSender(): LetterSender {
  const config = env();
  return {
    siteName: config.SITE_NAME,
    siteUrl: config.SITE_URL,
    operator: operatorOf(config),
  };
}

/** A footer line: its label, its value as text, and for HTML a link and the link's words. */
type FooterRow = { label: string; value: string; href?: string; linkText?: string };

/** The footer's lines, the same in both parts. */
function footerLines(
  sender: LetterSender,
  recipient: LetterInput['recipient'],
  unsubscribeUrl: string,
  tracked: boolean,
): { intro: string; rows: FooterRow[] } {
  const { siteName, siteUrl, operator } = sender;
  const legalPage = `${siteUrl}/specified-commercial-transactions`;
  return {
    intro:
      `このメールは、${siteName}（${siteUrl}）でニュースレターの受け取りを希望された ${recipient.email} 宛てにお送りしています。` +
      '今後の受け取りを希望されない場合は、次の配信停止のページからいつでも停止できます。',
    rows: [
      {
        label: '配信停止',
        value: unsubscribeUrl,
        href: unsubscribeUrl,
        linkText: 'ニュースレターの配信を停止する',
      },
      ...(tracked
        ? [
            {
              label: '計測',
              value: `このメールは開封とリンクのクリックを計測しています。アカウントのページ（${siteUrl}/account）でいつでも止められます`,
              href: `${siteUrl}/account`,
              linkText:
                'このメールは開封とリンクのクリックを計測しています。アカウントのページでいつでも止められます',
            },
          ]
        : []),
      { label: '送信者', value: operator.name },
      operator.address
        ? { label: '所在地', value: operator.address }
        : {
            label: '所在地',
            value: `特定商取引法に基づく表記（${legalPage}）をご覧ください`,
            href: legalPage,
            linkText: '特定商取引法に基づく表記をご覧ください',
          },
      { label: 'お問い合わせ', value: operator.email, href: `mailto:${operator.email}` },
      {
        label: 'お問い合わせフォーム',
        value: `${siteUrl}/contact`,
        href: `${siteUrl}/contact`,
      },
    ],
  };
}

function button(label: string, url: string): string {
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 0"><tr>` +
    `<td style="background:#ebff00;border:2px solid #1f1f1f">` +
    `<a class="letter-button" href="${escapeHtml(url)}" style="display:inline-block;padding:14px 28px;font-size:16px;font-weight:700;color:#1f1f1f;text-decoration:none">${escapeHtml(label)}</a>` +
    `</td></tr></table>`
  );
}

const HEAD_STYLE = `
:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (prefers-color-scheme: dark){
  .letter-bg{background:#121212 !important}
  .letter-card{background:#1c1c1c !important;color:#ececec !important}
  .letter-card h1,.letter-card h2,.letter-card h3,.letter-card h4,.letter-card p,.letter-card li,.letter-card td,.letter-card th,.letter-card figcaption,.letter-card blockquote{color:#ececec !important}
  .letter-card blockquote,.letter-card pre{background:#262626 !important}
  .letter-card a{color:#8ab4ff !important}
  .letter-card a.letter-plain{color:#ececec !important}
  .letter-card a.letter-button{color:#1f1f1f !important}
}`;

export function renderNewsletterLetter(input: LetterInput): Letter {
  const sender = input.sender ?? defaultLetterSender();
  const { siteName, siteUrl } = sender;
  const { item, audience, recipient, unsubscribeUrl, postUrl, freePlanPostIds } = input;
  const gated = postFor(VIEWER_OF[audience], { ...item, body: item.body ?? '' }, freePlanPostIds);
  const body = letterBody(gated.item.body ?? '', siteUrl);
  const cut = !gated.full;

  const subject = item.title;
  const byline = [
    (item.writers ?? []).map((w) => w.name).join('・'),
    item.publishedAt ? formatDateJa(item.publishedAt) : '',
  ]
    .filter(Boolean)
    .join('　');
  const cover = item.coverImage && absoluteUrl(item.coverImage.url, siteUrl);
  const footer = footerLines(sender, recipient, unsubscribeUrl, input.tracked ?? false);
  const greeting = `${recipient.name || '読者'} 様`;

  const readMore = cut
    ? {
        html:
          `<div style="margin:32px 0 0;padding:20px;border:1px solid ${LETTER_COLORS.rule}">` +
          `<p style="margin:0 0 12px;font-size:15px;line-height:1.8">この記事の続きは、有料会員の方がサイトでお読みいただけます。</p>` +
          button(READ_MORE_LABEL, postUrl) +
          `<p style="margin:12px 0 0;font-size:13px;line-height:1.7;color:${LETTER_COLORS.muted};word-break:break-all">${escapeHtml(postUrl)}</p>` +
          `</div>`,
        text: `この記事の続きは、有料会員の方がサイトでお読みいただけます。\n${READ_MORE_LABEL}:\n${postUrl}`,
      }
    : {
        html:
          (gated.freePlan
            ? `<p style="margin:32px 0 0;font-size:13px;line-height:1.7;color:${LETTER_COLORS.muted}">${FREE_PLAN_LETTER_NOTE}</p>`
            : '') +
          `<p style="margin:32px 0 0;font-size:15px"><a href="${escapeHtml(postUrl)}" style="color:${LETTER_COLORS.link};text-decoration:underline">${READ_ON_SITE_LABEL}</a></p>`,
        text: `${gated.freePlan ? `${FREE_PLAN_LETTER_NOTE}\n\n` : ''}${READ_ON_SITE_LABEL}:\n${postUrl}`,
      };

  // Stacked lines, not a table: a label column leaves too little width at 360 px.
  const footerHtml =
    `<p style="margin:0 0 12px">${escapeHtml(footer.intro)}</p>` +
    footer.rows
      .map(
        ({ label, value, href, linkText }) =>
          `<p style="margin:0 0 4px;word-break:break-all"><strong>${escapeHtml(label)}</strong>：${
            href
              ? `<a href="${escapeHtml(href)}" style="color:${LETTER_COLORS.muted};text-decoration:underline">${escapeHtml(linkText ?? value)}</a>`
              : escapeHtml(value)
          }</p>`,
      )
      .join('');

  const html = `<!doctype html>
<html lang="ja"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(subject)}</title><style>${HEAD_STYLE}</style></head>
<body class="letter-bg" style="margin:0;padding:0;background:#f4f4f2;-webkit-text-size-adjust:100%">
${item.description ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(item.description)}</div>` : ''}
<table role="presentation" class="letter-bg" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f2"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" class="letter-card" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;color:${LETTER_COLORS.text};font-family:${LETTER_FONT};line-height:1.9;text-align:left">
<tr><td style="padding:20px 20px 0">
<p style="margin:0;font-size:13px;font-weight:700;letter-spacing:.08em"><a class="letter-plain" href="${escapeHtml(siteUrl)}" style="color:${LETTER_COLORS.text};text-decoration:none">${escapeHtml(siteName)}</a></p>
</td></tr>
${cover ? `<tr><td style="padding:16px 0 0"><a href="${escapeHtml(postUrl)}"><img src="${escapeHtml(cover)}" alt="${escapeHtml(item.coverImage?.alt || item.title)}" width="600" style="display:block;width:100%;max-width:600px;height:auto;border:0"></a></td></tr>` : ''}
<tr><td style="padding:20px 20px 8px">
<h1 style="margin:0 0 8px;font-size:24px;line-height:1.45;font-weight:700"><a class="letter-plain" href="${escapeHtml(postUrl)}" style="color:${LETTER_COLORS.text};text-decoration:none">${escapeHtml(item.title)}</a></h1>
${byline ? `<p style="margin:0 0 16px;font-size:13px;color:${LETTER_COLORS.muted}">${escapeHtml(byline)}</p>` : ''}
<p style="margin:0 0 1.5em;font-size:15px">${escapeHtml(greeting)}</p>
${body.html}
${readMore.html}
${RULE_HTML}
</td></tr>
<tr><td style="padding:0 20px 24px;font-size:12px;line-height:1.7;color:${LETTER_COLORS.muted}">
${FOOTER_MARK}${footerHtml}
</td></tr>
</table>
</td></tr></table>
</body></html>`;

  const text = tidyText(
    [
      siteName,
      '',
      item.title,
      byline,
      '',
      greeting,
      '',
      body.text,
      '',
      readMore.text,
      '',
      '――',
      footer.intro,
      '',
      ...footer.rows.map(({ label, value }) => `${label}：${value}`),
    ].join('\n'),
  );

  return { subject, html, text };
}
