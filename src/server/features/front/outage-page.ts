import 'server-only';
import { createHash } from 'node:crypto';
import { escapeHtml } from '@/lib/text/escape-html';

/**
 * The page answered while the database is down: a plain string, made without the database and
 * without the framework (both fail then), with no external resource (fonts, images, scripts),
 * so it shows whatever else is broken. Its one inline style is allowed by its own hash
 * (OUTAGE_PAGE_CSP): the site's policy may not allow inline styles.
 */

const STYLE = `
*{box-sizing:border-box}
body{margin:0;background:#fff;color:#111;font-family:'Hiragino Sans','Hiragino Kaku Gothic ProN','Noto Sans JP','Noto Sans CJK JP','Yu Gothic UI',Meiryo,system-ui,sans-serif;font-size:1rem;line-height:1.9}
header{padding:1rem;border-bottom:1px solid #e2e2e0;font-weight:700;letter-spacing:.04em}
main{max-width:42rem;margin:0 auto;padding:3rem 1rem 4rem}
.code{display:inline-block;margin:0;padding:0 .5rem;background:#ebff00;color:#111;font-weight:700;letter-spacing:.08em}
h1{margin:1rem 0;font-size:clamp(1.5rem,5vw,2.25rem);line-height:1.45;font-feature-settings:"palt";word-break:auto-phrase}
p{margin:0 0 1rem;color:#595959;overflow-wrap:anywhere}
a.reload{display:inline-block;margin-top:1rem;padding:.5rem 1.25rem;min-height:42px;border-radius:2px;background:#ebff00;color:#111;font-weight:700;text-decoration:none}
a.reload:focus-visible{outline:3px solid #1a56db;outline-offset:2px}
`;

/** The policy of this page alone: nothing loads, only its own style applies. */
export const OUTAGE_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

export const OUTAGE_HEADING = 'ただいまサービスに接続できません';

export function outagePage(siteName: string): string {
  const site = escapeHtml(siteName);
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${OUTAGE_HEADING} | ${site}</title>
<style>${STYLE}</style>
</head>
<body>
<header>${site}</header>
<main>
<p class="code">503</p>
<h1>${OUTAGE_HEADING}</h1>
<p>システムの一時的な不具合により、ページを表示できません。復旧すると、自動的に元どおりご利用いただけるようになります。</p>
<p>お手数ですが、しばらく待ってからページを再読み込みしてください。入力中の内容がある場合は、送信し直す前に控えておくことをおすすめします。</p>
<a class="reload" href="">再読み込みする</a>
</main>
</body>
</html>
`;
}
