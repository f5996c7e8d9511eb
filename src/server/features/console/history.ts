import 'server-only';
import type { HistoryProps, VersionAction, VersionRow } from '@/lib/admin-content';
import type { Db } from '@/server/platform/db/client';
import type { EndpointDef } from '@/lib/cms/model';
import { type StoredVersion, listVersions } from '@/server/services/cms/versions';
import { actorLabels } from './actors';
import { findItem, titleFieldOf } from './items';

/**
 * The history page's data: the item's versions, newest first, and the two compared
 * (?from=&to=, by default the newest and the one before it).
 */

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export async function loadVersionHistory(
  db: Db,
  def: EndpointDef,
  id: string,
  params: Record<string, string | string[] | undefined>,
): Promise<HistoryProps | null> {
  const row = await findItem(db, def, id);
  if (!row) return null;
  const versions = await listVersions(db, def.endpoint, id);
  const labels = await actorLabels(
    db,
    versions.map((v) => v.actor),
  );
  const asRow = (version: StoredVersion): VersionRow => ({
    id: version.id,
    action: version.action as VersionAction,
    actor: labels.get(version.actor) ?? version.actor,
    createdAt: version.createdAt.toISOString(),
    status: version.status,
  });
  const byId = (raw: string | undefined) =>
    raw && /^\d{1,15}$/.test(raw) ? versions.find((v) => v.id === Number(raw)) : undefined;
  const to = byId(first(params.to)) ?? versions[0];
  const from = byId(first(params.from)) ?? versions.find((v) => to && v.id < to.id);
  const titleField = titleFieldOf(def);
  const working = row.draftData ?? row.data ?? {};
  return {
    def,
    endpoint: def.endpoint,
    id,
    title: titleField && typeof working[titleField] === 'string' ? working[titleField] : '',
    versions: versions.map(asRow),
    compare:
      from && to
        ? {
            from: { ...asRow(from), data: from.data },
            to: { ...asRow(to), data: to.data },
          }
        : null,
  };
}
