import type { JsonLdObject } from './core';

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/**
 * JSON for a <script type="application/ld+json"> element. `<`, `>` and `&` are written as
 * \u escapes (still the same JSON), so text like `</script>` or `<!--` in a title cannot end
 * the element or change how the HTML around it is parsed; U+2028/2029 likewise.
 */
export function serializeJsonLd(data: JsonLdObject | readonly JsonLdObject[]): string {
  return JSON.stringify(data).replace(UNSAFE, (c) => ESCAPES[c]!);
}
