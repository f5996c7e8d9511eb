import type { JsonLdObject } from './core';

/**
 * JSON for a <script type="application/ld+json"> element. `<`, `>` and `&` are written as
 * \u escapes (still the same JSON), so text like `</script>` or `<!--` in a title cannot end
 * the element or change how the HTML around it is parsed; U+2028/2029 likewise.
 */
export function serializeJsonLd(data: JsonLdObject | readonly JsonLdObject[]): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
