import 'server-only';
import { isDeepStrictEqual } from 'node:util';
import type { EndpointDef } from '@/lib/cms/model';
import type { ContentChange } from './events';
import type { StoredData } from './values';

/**
 * A field whose change may narrow what a reader is shown: the paywall's switch, the bodies and
 * files the policy cuts or withholds (the members' divider lives in the body), an embed, and
 * the publication date (the free plan opens the newest members' posts). Such a change is purged
 * at once; any other is refreshed while readers get the previous version for a moment.
 */
function mayNarrow(def: EndpointDef, fieldId: string): boolean {
  if (fieldId === 'isPublicPreview' || fieldId === 'publishedAt' || fieldId === 'embedUrl')
    return true;
  const kind = def.fields.find((field) => field.id === fieldId)?.kind;
  return kind === 'richEditor' || kind === 'file';
}

/**
 * The change of a published item whose published data goes from `before` to `after` (both
 * published), and whose system dates `dates` changed with it.
 */
export function publishedEdit(
  def: EndpointDef,
  id: string,
  before: StoredData,
  after: StoredData,
  dates: readonly string[],
): ContentChange {
  const fields = [...dates];
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (!isDeepStrictEqual(before[key], after[key])) fields.push(key);
  return {
    endpoint: def.endpoint,
    id,
    fields,
    membership: false,
    narrows: fields.some((field) => mayNarrow(def, field)),
  };
}
