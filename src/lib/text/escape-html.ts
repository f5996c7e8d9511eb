/**
 * The one HTML escaper, for server and client code alike. It escapes all five of & < > " ',
 * so its output is safe both as text and inside a quoted attribute (either quote): no caller
 * has to remember which of the two it is writing into.
 */

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
