import type { JsonLdObject } from '@/lib/json-ld/core';
import { serializeJsonLd } from '@/lib/json-ld/serialize';

/**
 * Structured data for a page: one <script type="application/ld+json"> with the objects made by
 * the builders of src/lib/json-ld/. A server component; the JSON is escaped so nothing in
 * the content can close the element (serializeJsonLd).
 */
export function JsonLd({ data }: { data: JsonLdObject | readonly JsonLdObject[] }) {
  return (
    <script
      type="application/ld+json"
      // JSON, not markup: serializeJsonLd escapes <, > and & so it cannot leave the element.
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
