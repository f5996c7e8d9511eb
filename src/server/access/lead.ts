import 'server-only';

const LEAD_MAX_CHARS = 300;

/**
 * The lead of a body: everything before the first <hr>, or else the first two blocks, cut to
 * whole blocks of at most ~300 characters of text. The input is sanitised HTML. Surfaces do not
 * call this: they render what the `…For` functions above give them.
 */
export function leadOf(html: string): string {
  const divider = html.search(/<hr\b/i);
  const head = divider >= 0 ? html.slice(0, divider) : html;
  const blocks = head.match(/<(p|h2|h3|h4|blockquote|ul|ol|figure)\b[\s\S]*?<\/\1>/gi) ?? [];
  const kept: string[] = [];
  let chars = 0;
  for (const block of blocks) {
    if (block.startsWith('<figure')) continue;
    const text = block.replace(/<[^>]+>/g, '');
    if (kept.length > 0 && chars + text.length > LEAD_MAX_CHARS) break;
    kept.push(block);
    chars += text.length;
    if (divider < 0 && kept.length >= 2) break;
  }
  return kept.join('');
}
