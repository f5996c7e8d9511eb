import { HOME_COUNTS, homeFetchSizes, selectHomePosts } from '@/lib/home/home-selection';

const posts = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (items: { id: string }[]) => items.map((item) => item.id);

/** Every post the page would show, in page order. */
function allShown(selection: ReturnType<typeof selectHomePosts<{ id: string }>>) {
  return [
    ...(selection.lead ? [selection.lead] : []),
    ...selection.picks,
    ...selection.latest,
    ...selection.feature,
    ...selection.insight,
  ].map((item) => item.id);
}

describe('selectHomePosts', () => {
  it('never shows a post twice, though the lists overlap', () => {
    // The demo corpus's shape: the newest posts are also picks, feature posts and insights.
    const latest = posts('p10', 'p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1');
    const selection = selectHomePosts({
      featured: posts('p9', 'p4', 'p10'),
      latest,
      feature: posts('p10', 'p8', 'p6', 'p4', 'p2'),
      insight: posts('p9', 'p8', 'p7', 'p5', 'p3', 'p1'),
    });
    const shown = allShown(selection);
    expect(new Set(shown).size).toBe(shown.length);
    expect(selection.lead?.id).toBe('p9');
    expect(ids(selection.picks)).toEqual(['p4', 'p10', 'p8']);
    expect(ids(selection.feature)).toEqual(['p6', 'p2']);
    expect(ids(selection.insight)).toEqual(['p7', 'p5', 'p3']);
    expect(ids(selection.latest)).toEqual(['p1']);
  });

  it('leads with the editors’ first pick and keeps their order', () => {
    const selection = selectHomePosts({
      featured: posts('c', 'a', 'b'),
      latest: posts('a', 'b', 'c', 'd', 'e'),
      feature: [],
      insight: [],
    });
    expect(selection.lead?.id).toBe('c');
    expect(ids(selection.picks)).toEqual(['a', 'b', 'd']);
    expect(ids(selection.latest)).toEqual(['e']);
  });

  it('leads with the newest post when the editors chose none, and tops the picks up from the newest', () => {
    const selection = selectHomePosts({
      featured: [],
      latest: posts('n1', 'n2', 'n3', 'n4', 'n5', 'n6'),
      feature: [],
      insight: [],
    });
    expect(selection.lead?.id).toBe('n1');
    expect(ids(selection.picks)).toEqual(['n2', 'n3', 'n4']);
    expect(ids(selection.latest)).toEqual(['n5', 'n6']);
  });

  it('fills the feature issue and insight before 新着, so short lists are not emptied by the newest', () => {
    const selection = selectHomePosts({
      featured: posts('a', 'b', 'c', 'd'),
      latest: posts('f1', 'i1', 'n1', 'n2', 'n3', 'n4', 'n5'),
      feature: posts('f1', 'f2'),
      insight: posts('i1'),
    });
    expect(ids(selection.feature)).toEqual(['f1', 'f2']);
    expect(ids(selection.insight)).toEqual(['i1']);
    expect(ids(selection.latest)).toEqual(['n1', 'n2', 'n3', 'n4']);
  });

  it('shows nothing, rather than failing, when there are no posts', () => {
    expect(selectHomePosts({ featured: [], latest: [], feature: [], insight: [] })).toEqual({
      lead: null,
      picks: [],
      feature: [],
      insight: [],
      latest: [],
    });
  });
});

describe('homeFetchSizes', () => {
  it('reads enough of each list that every section fills up even when all earlier ones took from it', () => {
    const sizes = homeFetchSizes();
    // The worst case: every list is the same posts in the same order.
    const same = (n: number) => posts(...Array.from({ length: n }, (_, i) => `p${i}`));
    const selection = selectHomePosts({
      featured: [],
      latest: same(sizes.latest),
      feature: same(sizes.feature),
      insight: same(sizes.insight),
    });
    expect(selection.picks).toHaveLength(HOME_COUNTS.picks);
    expect(selection.feature).toHaveLength(HOME_COUNTS.feature);
    expect(selection.insight).toHaveLength(HOME_COUNTS.insight);
    expect(selection.latest).toHaveLength(HOME_COUNTS.latest);
  });
});
