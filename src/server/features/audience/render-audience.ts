import 'server-only';
import { randomBytes } from 'node:crypto';
import { singleton } from '@/lib/singleton';
import type { Audience } from './audience';

/**
 * What a render found out about its viewer, for the front server's page cache. The front
 * server opens a record per request it may cache and names it in a request header only it can
 * set (a random id it hands the framework, any client value removed); the access policy notes
 * the audience it rendered for, and anything that read the user themself (a name, an e-mail)
 * notes "personal". The cache stores an answer only under the audience its render noted, so a
 * stale audience cookie or a cookie the cache read differently can never file a page where
 * another audience would be served it.
 */

export const RENDER_HEADER = 'x-axis-render';

export type RenderRecord = { audience: Audience | null; personal: boolean };

const records = singleton('render-records', () => new Map<string, RenderRecord>());

export function openRenderRecord(): { id: string; close: () => RenderRecord } {
  const id = randomBytes(16).toString('base64url');
  const record: RenderRecord = { audience: null, personal: false };
  records.set(id, record);
  return {
    id,
    close: () => {
      records.delete(id);
      return record;
    },
  };
}

function recordOf(headers: Pick<Headers, 'get'>): RenderRecord | undefined {
  const id = headers.get(RENDER_HEADER);
  return id ? records.get(id) : undefined;
}

/** The render showed what `audience` sees; two different audiences in one render are personal. */
export function noteAudience(headers: Pick<Headers, 'get'>, audience: Audience | null): void {
  const record = recordOf(headers);
  if (!record) return;
  if (audience === null) record.personal = true;
  else if (record.audience !== null && record.audience !== audience) record.personal = true;
  else record.audience = audience;
}

/** The render read something of one user: its answer is theirs alone. */
export function notePersonal(headers: Pick<Headers, 'get'>): void {
  const record = recordOf(headers);
  if (record) record.personal = true;
}
