import { describe, expect, it } from 'vitest';
import {
  type SubscriptionRecord,
  type SubscriptionStatus,
  deriveAuthState,
} from '@/lib/auth-state';
import type { Role } from '@/lib/identity/roles';
import {
  type CallToAction,
  type Gated,
  type Viewer,
  audioFor,
  connectFor,
  hasPaidAccess,
  mayGift,
  movieFor,
  postAccess,
  postFor,
  viewerOf,
} from './post-access';

// ---------------------------------------------------------------------------------------------
// Viewers, as the session makes them: a role and the auth state derived from the profile and
// subscription records (src/lib/auth-state.ts), turned into a policy viewer by viewerOf.

function signedIn(
  role: Role,
  { partnerId = '', plan }: { partnerId?: string; plan?: SubscriptionStatus } = {},
): Viewer {
  const subscriptions = plan
    ? [
        {
          id: 'sub_1',
          status: plan,
          cancel_at_period_end: false,
          items: [{ price: { product: { name: 'スタンダード' } } }],
        },
      ]
    : [];
  // The partner record changes nothing for the policy; the auth state still names it.
  expect(
    deriveAuthState({
      uid: 'u1',
      publicProfile: { uid: 'u1', displayName: '読者', partnerId },
      privateProfile: { uid: 'u1', email: 'reader@example.jp' },
      subscriptions,
    }).isPartner,
  ).toBe(partnerId !== '');
  return viewerOf({ role }, subscriptions);
}

const VIEWERS = {
  anonymous: viewerOf(null, []),
  'signed-in free': signedIn('member'),
  'paid (active)': signedIn('member', { plan: 'active' }),
  'paid (trialing)': signedIn('member', { plan: 'trialing' }),
  canceled: signedIn('member', { plan: 'canceled' }),
  'partner free': signedIn('member', { partnerId: 'partner-1' }),
  'partner paid': signedIn('member', { partnerId: 'partner-1', plan: 'active' }),
  editor: signedIn('editor'),
  admin: signedIn('admin'),
} satisfies Record<string, Viewer>;
type ViewerName = keyof typeof VIEWERS;

// ---------------------------------------------------------------------------------------------
// Items, each with a marker in its gated part (as the e2e leak test plants them).

const SECRET = 'HIMITSU-MARKER';
const BODY = `<p>導入の段落です。</p><p>二つ目の段落。</p><hr data-members-divider><p>${SECRET} 会員だけの本文。</p>`;
const LEAD = '<p>導入の段落です。</p><p>二つ目の段落。</p>';
const open = { title: 'タイトル', description: '説明文', coverImage: { url: '/uploads/c.jpg' } };

/** The free-plan list: the 3 newest members' posts. */
const FREE_PLAN = ['newest', 'second', 'third'];

const ITEMS = {
  'public-preview post': (v: Viewer) =>
    postFor(v, { ...open, id: 'preview', isPublicPreview: true, body: BODY }, FREE_PLAN),
  "members' post in the free-plan list": (v: Viewer) =>
    postFor(v, { ...open, id: 'newest', isPublicPreview: false, body: BODY }, FREE_PLAN),
  "members' post not in it": (v: Viewer) =>
    postFor(v, { ...open, id: 'older', isPublicPreview: false, body: BODY }, FREE_PLAN),
  audio: (v: Viewer) =>
    audioFor(v, {
      ...open,
      id: 'a1',
      isPublicPreview: false,
      transcript: BODY,
      audioFile: { url: `/media/protected/2026/01/${SECRET}.mp3` },
    }),
  movie: (v: Viewer) =>
    movieFor(v, {
      ...open,
      id: 'm1',
      isPublicPreview: false,
      videoFile: { url: `/media/protected/2026/01/${SECRET}.mp4` },
      embedUrl: `https://www.youtube.com/embed/${SECRET}`,
    }),
  connect: (v: Viewer) => connectFor(v, { ...open, id: 'c1', body: BODY }),
} satisfies Record<string, (viewer: Viewer) => Gated<object, object>>;
type ItemName = keyof typeof ITEMS;

// ---------------------------------------------------------------------------------------------
// The truth table: full access (and whether the free plan opened it), or the call to action
// the paywall shows: what would open the item, and whether it also offers ログイン.

type Outcome =
  'full' | 'full (free plan)' | 'sign up or sign in' | 'subscribe or sign in' | 'subscribe';
const CALLS: Record<Exclude<Outcome, 'full' | 'full (free plan)'>, CallToAction> = {
  'sign up or sign in': { opensWith: 'sign-up', anonymous: true },
  'subscribe or sign in': { opensWith: 'subscribe', anonymous: true },
  subscribe: { opensWith: 'subscribe', anonymous: false },
};
const ALL_FULL = ['full', 'full', 'full', 'full', 'full', 'full'] as const;
const FREE_MEMBER = [
  'full',
  'full (free plan)',
  'subscribe',
  'subscribe',
  'subscribe',
  'full',
] as const;

// Columns in the order of ITEMS. A visitor is never offered a free account for an item only a
// paid plan opens.
const TABLE: Record<ViewerName, readonly Outcome[]> = {
  anonymous: [
    'full',
    'sign up or sign in',
    'subscribe or sign in',
    'subscribe or sign in',
    'subscribe or sign in',
    'sign up or sign in',
  ],
  'signed-in free': FREE_MEMBER,
  'paid (active)': ALL_FULL,
  'paid (trialing)': ALL_FULL,
  // A canceled plan takes paid access away at once: a free member again.
  canceled: FREE_MEMBER,
  // Partners are members like any other: their plan decides.
  'partner free': FREE_MEMBER,
  'partner paid': ALL_FULL,
  editor: ALL_FULL,
  admin: ALL_FULL,
};

const ROWS = (Object.keys(TABLE) as ViewerName[]).flatMap((viewer) =>
  (Object.keys(ITEMS) as ItemName[]).map(
    (item, column) => [viewer, item, TABLE[viewer][column]!] as const,
  ),
);

describe('the access policy truth table', () => {
  it('has a row for every viewer × item', () => {
    expect(ROWS).toHaveLength(9 * 6);
  });

  it.each(ROWS)('%s × %s → %s', (viewer, item, outcome) => {
    const gated = ITEMS[item](VIEWERS[viewer]);
    const withheld = JSON.stringify(gated.item).includes(SECRET);
    if (outcome === 'full' || outcome === 'full (free plan)') {
      expect(gated).toEqual({
        full: true,
        item: gated.item,
        freePlan: outcome === 'full (free plan)',
      });
      expect(withheld).toBe(true);
    } else {
      expect(gated).toMatchObject({ full: false, item: gated.item, cta: CALLS[outcome] });
      // Nothing of the gated part leaves: not the body past the lead, the file or the embed.
      expect(withheld).toBe(false);
      expect(gated.item).toMatchObject(open);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// What leaves the server when access is not full.

describe('what a viewer without full access gets', () => {
  const anonymous = VIEWERS.anonymous;

  it('a post: everything but the body, which is its lead', () => {
    const post = { ...open, id: 'older', isPublicPreview: false, body: BODY, tags: ['t'] };
    expect(postFor(anonymous, post, [])).toEqual({
      full: false,
      item: { ...post, body: LEAD },
      cta: { opensWith: 'subscribe', anonymous: true },
      gatedChars: Array.from(`${SECRET}会員だけの本文。`).length,
    });
  });

  it('a post or connect page without a body: an empty lead', () => {
    expect(postFor(anonymous, { id: 'x', isPublicPreview: false }, []).item).toEqual({
      id: 'x',
      isPublicPreview: false,
      body: '',
    });
    const page: { id: string; body?: string } = { id: 'c' };
    expect(connectFor(anonymous, page).item).toEqual({ id: 'c', body: '' });
  });

  it('an audio episode: no file, the transcript’s lead (none when it has none)', () => {
    const audio: { isPublicPreview: boolean; audioFile: { url: string }; transcript?: string } = {
      ...open,
      isPublicPreview: false,
      audioFile: { url: '/media/protected/a.mp3' },
    };
    expect(audioFor(VIEWERS['signed-in free'], { ...audio, transcript: BODY })).toEqual({
      full: false,
      item: { ...open, isPublicPreview: false, transcript: LEAD },
      cta: { opensWith: 'subscribe', anonymous: false },
      gatedChars: Array.from(`${SECRET}会員だけの本文。`).length,
    });
    expect(audioFor(anonymous, audio).item).not.toHaveProperty('audioFile');
    expect(audioFor(anonymous, audio).item.transcript).toBeUndefined();
  });

  it('a movie: neither its file nor its embed', () => {
    const movie = {
      ...open,
      isPublicPreview: false,
      duration: 90,
      videoFile: { url: '/media/protected/m.mp4' },
      embedUrl: 'https://www.youtube.com/embed/xyz',
    };
    expect(movieFor(anonymous, movie)).toEqual({
      full: false,
      item: { ...open, isPublicPreview: false, duration: 90 },
      cta: { opensWith: 'subscribe', anonymous: true },
    });
  });

  it('a connect page: the lead of its body', () => {
    expect(connectFor(anonymous, { ...open, body: BODY })).toEqual({
      full: false,
      item: { ...open, body: LEAD },
      cta: { opensWith: 'sign-up', anonymous: true },
      gatedChars: Array.from(`${SECRET}会員だけの本文。`).length,
    });
  });
});

describe('items open to everyone, and preview mode', () => {
  it.each(Object.keys(VIEWERS) as ViewerName[])(
    'plays public-preview audio and movies for %s, file and all',
    (name) => {
      const audio = { isPublicPreview: true, audioFile: { url: '/u/a.mp3' }, transcript: BODY };
      const movie = { isPublicPreview: true, videoFile: { url: '/u/m.mp4' } };
      expect(audioFor(VIEWERS[name], audio)).toEqual({ full: true, item: audio, freePlan: false });
      expect(movieFor(VIEWERS[name], movie)).toEqual({ full: true, item: movie, freePlan: false });
    },
  );

  const preview: Viewer = { kind: 'preview' };
  it.each(Object.keys(ITEMS) as ItemName[])('shows the whole %s in preview mode', (item) => {
    expect(ITEMS[item](preview).full).toBe(true);
  });
});

describe('viewerOf', () => {
  const PAID: Viewer = { kind: 'member', paid: true };
  const FREE: Viewer = { kind: 'member', paid: false };
  const plan = (status: SubscriptionStatus, end?: string) => ({
    status,
    cancel_at_period_end: end !== undefined,
    current_period_end: end ?? null,
  });
  it.each<[string, { role: Role } | null, ReturnType<typeof plan>[], Viewer]>([
    ['nobody', null, [], { kind: 'anonymous' }],
    ['a member', { role: 'member' }, [], { kind: 'member', paid: false }],
    ['a paying member', { role: 'member' }, [plan('active')], { kind: 'member', paid: true }],
    ['a member whose renewal is being retried', { role: 'member' }, [plan('past_due')], PAID],
    ['an unpaid member', { role: 'member' }, [plan('unpaid')], FREE],
    ['a member with a paused plan', { role: 'member' }, [plan('paused')], FREE],
    ['a member cancelling later', { role: 'member' }, [plan('active', '2999-01-01')], PAID],
    ['a member whose plan ended', { role: 'member' }, [plan('active', '2000-01-01')], FREE],
    ['an editor', { role: 'editor' }, [], { kind: 'staff' }],
    ['an admin with a plan', { role: 'admin' }, [plan('active')], { kind: 'staff' }],
  ])('makes %s a viewer', (_, user, subscriptions, viewer) => {
    expect(viewerOf(user, subscriptions)).toEqual(viewer);
  });
});

describe('hasPaidAccess and isPaidUser', () => {
  it('keep past_due apart: the reader keeps access, the account screen says it is not paid', () => {
    const pastDue: SubscriptionRecord = {
      id: 'sub_2',
      status: 'past_due',
      cancel_at_period_end: false,
      items: [{ price: { product: { name: 'スタンダード' } } }],
    };
    expect(hasPaidAccess([pastDue])).toBe(true);
    const auth = deriveAuthState({
      uid: 'u1',
      publicProfile: { uid: 'u1', displayName: '読者', partnerId: '' },
      privateProfile: { uid: 'u1', email: 'reader@example.jp' },
      subscriptions: [pastDue],
    });
    expect(auth.isPaidUser).toBe(false);
  });
});

describe('gifts (docs/decisions/037-gift-articles.md)', () => {
  const gift = { contentId: 'p1', giverName: '贈る人', expiresAt: new Date(0) };
  const post = { id: 'p1', isPublicPreview: false, body: BODY };
  const anonymous: Viewer = { kind: 'anonymous' };
  const free: Viewer = { kind: 'member', paid: false };
  const paid: Viewer = { kind: 'member', paid: true };

  it('a gift opens the post it was made for, and says so', () => {
    for (const viewer of [anonymous, free])
      expect(postFor(viewer, post, [], gift)).toEqual({
        full: true,
        item: post,
        freePlan: false,
        gift,
      });
  });

  it('a gift for another post opens nothing', () => {
    expect(postAccess(anonymous, { ...post, id: 'p2' }, [], gift).full).toBe(false);
  });

  it('a reader the rest opens is not told of a gift', () => {
    expect(postAccess(paid, post, [], gift)).toEqual({ full: true, freePlan: false });
  });

  it('only a paid reader gives, and only a members’ post', () => {
    expect(mayGift(paid, post)).toBe(true);
    expect(mayGift(paid, { ...post, isPublicPreview: true })).toBe(false);
    for (const viewer of [
      anonymous,
      free,
      { kind: 'staff' } as Viewer,
      { kind: 'preview' } as Viewer,
    ])
      expect(mayGift(viewer, post)).toBe(false);
  });
});

describe('a post sold singly (docs/decisions/053-one-time-payments.md)', () => {
  const sold = { id: 'sold', isPublicPreview: false, price: 300 };
  const free: Viewer = { kind: 'member', paid: false };
  it('is offered to a reader it is closed to, at its price, and opened by the reader’s purchase', () => {
    expect(postAccess(free, sold, [])).toEqual({
      full: false,
      cta: { opensWith: 'subscribe', anonymous: false, price: 300 },
    });
    expect(postAccess({ kind: 'anonymous' }, sold, [])).toMatchObject({ cta: { price: 300 } });
    expect(postAccess(free, sold, [], null, ['sold'])).toEqual({
      full: true,
      freePlan: false,
      bought: true,
    });
    // Another post's purchase opens nothing; an anonymous viewer has no purchases.
    expect(postAccess(free, sold, [], null, ['other']).full).toBe(false);
    expect(postAccess({ kind: 'anonymous' }, sold, [], null, ['sold']).full).toBe(false);
  });
  it('is never offered where a plan or a free account opens it, nor with a price out of range', () => {
    expect(postAccess({ kind: 'member', paid: true }, sold, [])).toEqual({
      full: true,
      freePlan: false,
    });
    expect(postAccess({ kind: 'anonymous' }, sold, ['sold'])).toMatchObject({
      cta: { opensWith: 'sign-up' },
    });
    expect(postAccess({ kind: 'anonymous' }, sold, ['sold'])).not.toMatchObject({
      cta: { price: expect.any(Number) as number },
    });
    for (const price of [99, 50_001, 150.5, null]) {
      const cta = postAccess(free, { ...sold, price }, []);
      expect(!cta.full && cta.cta.price).toBeUndefined();
    }
  });
});

describe('a metered read (docs/decisions/055-metered-wall.md)', () => {
  const post = { id: 'm', isPublicPreview: false };
  const free: Viewer = { kind: 'member', paid: false };
  it('opens the post the meter opened, for a free member only, and only that post', () => {
    expect(postAccess(free, post, [], null, [], ['m'])).toEqual({
      full: true,
      freePlan: false,
      metered: true,
    });
    expect(postAccess(free, post, [], null, [], ['other']).full).toBe(false);
    expect(postAccess({ kind: 'anonymous' }, post, [], null, [], ['m']).full).toBe(false);
    // A purchase opens it before the meter: no read spent on a bought post.
    expect(postAccess(free, post, [], null, ['m'], ['m'])).toMatchObject({ bought: true });
    expect(postFor(free, { ...post, body: '<p>a</p>' }, [], null, [], ['m'])).toMatchObject({
      full: true,
      metered: true,
    });
  });
});
