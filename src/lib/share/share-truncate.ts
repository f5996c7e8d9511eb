/**
 * How the search result and the share cards cut a title or a description. They cut by the width
 * the text takes, not by characters: a Japanese character (全角) is about twice as wide as a
 * Latin letter, so Google shows about 30 of them in a title where it shows about 60 letters.
 * Widths here are in half-width units (a Latin letter 1, a full-width character 2).
 */

/** East Asian Wide and Fullwidth ranges (Unicode UAX #11), where most Japanese text falls. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

export function charWidth(char: string): number {
  return WIDE.test(char) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/**
 * The text as a surface shows it at most `maxWidth` units wide: whole when it fits, else cut
 * (never inside a character) with the ellipsis within the width.
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = '…'): string {
  const normalized = text.replace(/\s+/g, ' ').trim();
  if (displayWidth(normalized) <= maxWidth) return normalized;
  const budget = maxWidth - displayWidth(ellipsis);
  let width = 0;
  let out = '';
  for (const char of normalized) {
    const w = charWidth(char);
    if (width + w > budget) break;
    width += w;
    out += char;
  }
  return `${out.trimEnd()}${ellipsis}`;
}

/**
 * Each surface's limits, in half-width units, as they show a link at their usual size: Google's
 * desktop result (a 600 px column: title about 30 全角, description about 120 全角 on two
 * lines), X's large image card (506 px: the title on the image, one line), Facebook's link
 * card (500 px: title up to two lines, description one) and LINE's (about 260 px: title and
 * description two lines each).
 */
export const SHARE_SURFACES = {
  google: { width: 600, imageHeight: 0, title: 60, description: 240 },
  x: { width: 506, imageHeight: 265, title: 70, description: 0 },
  facebook: { width: 500, imageHeight: 261, title: 88, description: 72 },
  line: { width: 260, imageHeight: 136, title: 48, description: 56 },
} as const;

export type ShareSurface = keyof typeof SHARE_SURFACES;

/** What one surface shows of a link: its title and description cut as it cuts them. */
export function surfaceText(
  surface: ShareSurface,
  share: { title: string; description: string | null },
): { title: string; description: string } {
  const limits = SHARE_SURFACES[surface];
  const ellipsis = surface === 'google' ? ' ...' : '…';
  return {
    title: truncateToWidth(share.title, limits.title, ellipsis),
    description:
      limits.description > 0
        ? truncateToWidth(share.description ?? '', limits.description, ellipsis)
        : '',
  };
}
