/**
 * An author page lists everything a writer wrote or appears in (posts, audios, movies) as one
 * list, newest first (docs/decisions/035-authors-and-series.md). The content service sorts each
 * type on its own; this merges them and cuts one page out of the merged list.
 */

export type DatedItem = { id: string; publishedAt?: string | null; createdAt: string };

/** When an item came out: its first publication, else its creation. */
export function releasedAt(item: DatedItem): number {
  const time = Date.parse(item.publishedAt ?? item.createdAt);
  return Number.isNaN(time) ? 0 : time;
}

/** Newest first; items of the same moment by id, so every read gives the same order. */
export function byNewest(a: DatedItem, b: DatedItem): number {
  return releasedAt(b) - releasedAt(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Items `[start, start + size)` of the lists merged newest first (`dated` says when each came
 * out). Each list must be newest first and hold its first `start + size` items (or all it has):
 * no item further down any list can come before them.
 */
export function mergedWindow<T>(
  lists: readonly (readonly T[])[],
  start: number,
  size: number,
  dated: (item: T) => DatedItem,
): T[] {
  const from = Math.max(0, start);
  return lists
    .flat()
    .toSorted((a, b) => byNewest(dated(a), dated(b)))
    .slice(from, from + Math.max(0, size));
}

/** The path of a writer's page. */
export function authorPath(writerId: string): string {
  return `/authors/${encodeURIComponent(writerId)}`;
}

/** The path of a series' page. */
export function seriesPath(seriesId: string): string {
  return `/series/${encodeURIComponent(seriesId)}`;
}
