import 'server-only';
import { Html, type HtmlValue, html } from './html';
import { CSS, CSS_HASH } from './styles';

/**
 * The frame of every sandbox page (Japanese, one <h1>, the test-environment banner in the
 * page's header) and the headers its answers carry: never cached, never framed, no referrer
 * (the path holds the session's credential), and a CSP that allows nothing but the inline
 * stylesheet and form posts to the page itself (or to where a post redirects).
 */

export function page(title: string, main: HtmlValue): Html {
  return html`<!DOCTYPE html>
    <html lang="ja">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${title}｜テスト環境</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <header class="test-banner">
          <p>テスト環境：実際のカードは使えません。請求は発生しません。</p>
        </header>
        <main>${main}</main>
      </body>
    </html> `;
}

/**
 * The stylesheet, built as plain text: its content must stay exactly the text CSS_HASH covers
 * (a formatter would indent it inside an html template), and it is ours, so not escaped.
 */
// module-state: an immutable piece of markup.
const STYLE_ELEMENT = new Html(`<style>${CSS}</style>`);

function securityHeaders(formOrigins: string[]): Record<string, string> {
  const formAction = ["'self'", ...new Set(formOrigins)].join(' ');
  return {
    'cache-control': 'no-store',
    'content-security-policy': [
      "default-src 'none'",
      `style-src ${CSS_HASH}`,
      `form-action ${formAction}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` with the
    // page's own form posts, which the origin check must then refuse.
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };
}

/**
 * A page's answer. `formOrigins`: other origins a form post on it may end at (a redirect to a
 * success_url elsewhere), which CSP's form-action must allow.
 */
export function htmlResponse(
  document: Html,
  options: { status?: number; formOrigins?: string[] } = {},
): Response {
  return new Response(document.text, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      ...securityHeaders(options.formOrigins ?? []),
    },
  });
}

/** After a post: 303, so that reloading the next page does not post again. */
export function redirect(location: string): Response {
  return new Response(null, { status: 303, headers: { location, ...securityHeaders([]) } });
}

/** A page that only says something (not found, expired, done), with a way on if there is one. */
export function messagePage(
  title: string,
  text: string,
  link: { href: string; label: string } | null,
  status = 200,
): Response {
  return htmlResponse(
    page(
      title,
      html`<h1>${title}</h1>
        <div class="panel">
          <p>${text}</p>
          ${link && html`<p><a href="${link.href}">${link.label}</a></p>`}
        </div>`,
    ),
    { status },
  );
}

export function notFoundPage(): Response {
  return messagePage('ページが見つかりません', 'ページのアドレスをご確認ください。', null, 404);
}
