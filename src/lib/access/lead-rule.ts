/**
 * Which rule makes the lead of a rich-text field, said to the editor beside it
 * (docs/decisions/029-divider-is-the-lead.md). The policy itself is server-only
 * (src/lib/access/lead.ts); this is what the console can know while typing: whether the
 * field holds the members' divider, and whether the item is open to everyone anyway.
 */

/** Characters of text in a lead without the members' divider, '…' included. */
export const LEAD_MAX_CHARS = 300;

/** The rich-text field the access policy cuts to a lead, per endpoint. */
const GATED_FIELD: Readonly<Record<string, string>> = {
  posts: 'body',
  audios: 'transcript',
  connect: 'body',
};

/** Endpoints whose items may be open to everyone (`isPublicPreview`). */
const PREVIEWABLE: ReadonlySet<string> = new Set(['posts', 'audios']);

export const LEAD_NOTES = {
  divider:
    '区切り線（ここから会員限定）より上が、訪問者に見える部分です。図版・埋め込み・表も含め、区切り線より上はすべて表示されます。',
  noDivider: `区切り線がないため、訪問者には冒頭の約${LEAD_MAX_CHARS}文字（段落か文の切れ目まで）だけが見えます。図版と埋め込みは表示されません。見せる範囲を決めるには「会員限定の区切り」を入れてください。`,
  open: '無料公開のため、本文はすべて誰にでも見えます。',
} as const;

// The divider is the attribute on an <hr>, any value, any letter case (members-divider.ts);
// a longer attribute name (data-members-divider-x) is not it.
const DIVIDER = /<hr\b[^>]*?\sdata-members-divider(?=[\s=/>])/i;

/** Whether rich-text HTML holds the members' divider, as the access policy reads it. */
export function hasMembersDividerHtml(html: string): boolean {
  return DIVIDER.test(html);
}

/**
 * The note for a field of an item being edited: null for a field no lead is made of.
 * `values` are the item's fields as the editor holds them.
 */
export function leadRuleNote(
  endpoint: string,
  fieldId: string,
  values: Readonly<Record<string, unknown>>,
): string | null {
  if (GATED_FIELD[endpoint] !== fieldId) return null;
  if (PREVIEWABLE.has(endpoint) && values.isPublicPreview === true) return LEAD_NOTES.open;
  const html = values[fieldId];
  return typeof html === 'string' && hasMembersDividerHtml(html)
    ? LEAD_NOTES.divider
    : LEAD_NOTES.noDivider;
}

/**
 * 「訪問者に見える部分」: the item's preview URL showing the draft as a signed-out visitor gets
 * it (src/server/features/preview/preview.ts, `as=visitor`). Posts only: the other gated kinds have no
 * preview page.
 */
export function visitorViewUrl(endpoint: string, previewUrl: string | null): string | null {
  if (endpoint !== 'posts' || !previewUrl) return null;
  return `${previewUrl}${previewUrl.includes('?') ? '&' : '?'}as=visitor`;
}
