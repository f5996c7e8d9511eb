import 'server-only';
import { createHash } from 'node:crypto';

/**
 * The pages' only stylesheet, inlined (the pages load nothing: no fonts, images or scripts)
 * and allowed by its hash in the Content-Security-Policy. Colours come from PALETTE, whose
 * pairs of text and background are checked for WCAG AA contrast in the tests.
 */

export const PALETTE = {
  text: '#1f2328',
  muted: '#555f6b',
  page: '#f6f8fa',
  surface: '#ffffff',
  border: '#6e7781',
  rule: '#d0d7de',
  accent: '#0b57d0',
  onAccent: '#ffffff',
  error: '#b42318',
  success: '#116329',
  bannerText: '#4d3800',
  bannerBackground: '#fff4d1',
  bannerBorder: '#9a6700',
} as const;

/** Text on background, each needing 4.5:1 (WCAG 2.2 AA, 1.4.3); borders and focus 3:1 (1.4.11). */
export const CONTRAST_PAIRS: { text: string; background: string; minimum: number }[] = [
  { text: PALETTE.text, background: PALETTE.page, minimum: 4.5 },
  { text: PALETTE.text, background: PALETTE.surface, minimum: 4.5 },
  { text: PALETTE.muted, background: PALETTE.page, minimum: 4.5 },
  { text: PALETTE.muted, background: PALETTE.surface, minimum: 4.5 },
  { text: PALETTE.accent, background: PALETTE.surface, minimum: 4.5 },
  { text: PALETTE.accent, background: PALETTE.page, minimum: 4.5 },
  { text: PALETTE.onAccent, background: PALETTE.accent, minimum: 4.5 },
  { text: PALETTE.onAccent, background: PALETTE.error, minimum: 4.5 },
  { text: PALETTE.error, background: PALETTE.surface, minimum: 4.5 },
  { text: PALETTE.error, background: PALETTE.page, minimum: 4.5 },
  { text: PALETTE.success, background: PALETTE.surface, minimum: 4.5 },
  { text: PALETTE.bannerText, background: PALETTE.bannerBackground, minimum: 4.5 },
  { text: PALETTE.border, background: PALETTE.surface, minimum: 3 },
  { text: PALETTE.accent, background: PALETTE.page, minimum: 3 },
];

const P = PALETTE;

export const CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;font-family:system-ui,-apple-system,"Hiragino Sans","Hiragino Kaku Gothic ProN","Yu Gothic UI",Meiryo,"Noto Sans JP",sans-serif;font-size:1rem;line-height:1.7;color:${P.text};background:${P.page}}
.test-banner{background:${P.bannerBackground};color:${P.bannerText};border-bottom:3px solid ${P.bannerBorder};padding:.75rem 1rem}
.test-banner p{max-width:40rem;margin:0 auto;font-weight:700}
main{display:block;max-width:40rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.5rem;line-height:1.4;margin:0 0 1.25rem}
h2{font-size:1.125rem;line-height:1.4;margin:0 0 .75rem}
h3{font-size:1rem;line-height:1.4;margin:0 0 .5rem}
p{margin:0 0 .75rem}
a{color:${P.accent};text-underline-offset:.2em}
:focus-visible{outline:3px solid ${P.accent};outline-offset:2px}
.panel{background:${P.surface};border:1px solid ${P.rule};border-radius:8px;padding:1rem;margin:0 0 1.25rem}
.panel>:last-child{margin-bottom:0}
.summary{display:grid;grid-template-columns:minmax(6.5rem,max-content) 1fr;gap:.25rem 1rem;margin:0 0 .75rem}
.summary dt{color:${P.muted}}
.summary dd{margin:0;overflow-wrap:anywhere}
.total{font-size:1.25rem;font-weight:700}
.note,.hint{color:${P.muted};font-size:.875rem}
.hint{display:block;margin:0 0 .25rem}
.field{margin:0 0 1rem}
.fields-row{display:grid;gap:0 1rem}
@media (min-width:30rem){.fields-row{grid-template-columns:1fr 1fr}}
label{display:block;font-weight:700;margin:0 0 .25rem}
input,select{display:block;width:100%;min-height:44px;font:inherit;color:${P.text};background:${P.surface};border:1px solid ${P.border};border-radius:6px;padding:.5rem .75rem}
input[aria-invalid="true"]{border:2px solid ${P.error}}
.field-error{color:${P.error};font-weight:700;margin:0 0 .25rem}
.error-summary{background:${P.surface};border:3px solid ${P.error};border-radius:8px;padding:1rem;margin:0 0 1.25rem}
.error-summary h2{color:${P.error}}
.error-summary ul{margin:0;padding-left:1.25rem}
.error-summary a{color:${P.error};font-weight:700}
.status{background:${P.surface};border-left:6px solid ${P.success};border-radius:4px;padding:.75rem 1rem;margin:0 0 1.25rem;font-weight:700}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.75rem 1.25rem;margin:1rem 0 0}
.actions form{margin:0}
.button{display:inline-block;min-height:44px;font:inherit;font-weight:700;line-height:1.4;text-align:center;text-decoration:none;padding:.6rem 1.5rem;border-radius:6px;border:2px solid ${P.accent};background:${P.accent};color:${P.onAccent};cursor:pointer}
.button.secondary{background:${P.surface};color:${P.accent}}
.button.danger{background:${P.error};border-color:${P.error};color:${P.onAccent}}
.button.wide{width:100%}
.change-plan{margin-top:1.25rem;padding-top:1.25rem;border-top:1px solid ${P.rule}}
.test-cards ul{margin:0;padding-left:1.25rem}
.test-cards code,.card-number{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:nowrap}
table{width:100%;border-collapse:collapse;font-size:.875rem}
caption{text-align:left;font-weight:700;margin:0 0 .5rem}
th,td{text-align:left;vertical-align:top;padding:.5rem .375rem;border-bottom:1px solid ${P.rule};overflow-wrap:anywhere}
th{color:${P.muted};font-weight:700}
.number{text-align:right;white-space:nowrap}
@media (min-width:48rem){main{padding-top:2.5rem}h1{font-size:1.75rem}.panel{padding:1.5rem}table{font-size:1rem}}
@media (forced-colors:active){.button{border:2px solid ButtonText}}
`.trim();

/** The stylesheet's CSP source: style-src allows it by hash, so nothing else can style. */
export const CSS_HASH = `'sha256-${createHash('sha256').update(CSS).digest('base64')}'`;
