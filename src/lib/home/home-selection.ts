/**
 * Which posts the home page shows where. The sections draw on overlapping lists (an editor's
 * pick is often also the newest post, a post of the current feature issue, an insight), and a
 * front page that shows the same story twice looks careless: every post goes to the first
 * section that claims it, and later sections take the next ones of their own list.
 */

export const HOME_COUNTS = { picks: 3, feature: 3, insight: 3, latest: 4 } as const;

type Counts = { picks: number; feature: number; insight: number; latest: number };

/**
 * How many of each list to read so every section can still fill up after the sections that
 * claim before it took their posts out of it (claim order: lead, picks, feature, insight,
 * latest).
 */
export function homeFetchSizes(counts: Counts = HOME_COUNTS) {
  const beforeFeature = 1 + counts.picks;
  return {
    feature: beforeFeature + counts.feature,
    insight: beforeFeature + counts.feature + counts.insight,
    latest: beforeFeature + counts.feature + counts.insight + counts.latest,
  };
}

export type HomePosts<T> = {
  /** The large story at the top: the editors' first pick, else the newest post. */
  lead: T | null;
  /** The row under the lead: the editors' other picks, topped up with the newest posts. */
  picks: T[];
  /** Posts of the current feature issue. */
  feature: T[];
  insight: T[];
  /** The newest posts not shown above. */
  latest: T[];
};

/**
 * The feature issue and insight claim before 新着 although they are shown below it: their
 * lists are short, and the newest posts would otherwise empty them; 新着 has plenty left.
 */
export function selectHomePosts<T extends { id: string }>(
  lists: {
    featured: readonly T[];
    latest: readonly T[];
    feature: readonly T[];
    insight: readonly T[];
  },
  counts: Counts = HOME_COUNTS,
): HomePosts<T> {
  const shown = new Set<string>();
  const take = (list: readonly T[], count: number): T[] => {
    const taken: T[] = [];
    for (const item of list) {
      if (taken.length >= count) break;
      if (shown.has(item.id)) continue;
      shown.add(item.id);
      taken.push(item);
    }
    return taken;
  };

  const lead = take(lists.featured, 1)[0] ?? take(lists.latest, 1)[0] ?? null;
  const picks = take(lists.featured, counts.picks);
  picks.push(...take(lists.latest, counts.picks - picks.length));
  const feature = take(lists.feature, counts.feature);
  const insight = take(lists.insight, counts.insight);
  const latest = take(lists.latest, counts.latest);
  return { lead, picks, feature, insight, latest };
}
