/**
 * The one vocabulary of access (docs/decisions/022-access-vocabulary.md): every surface that
 * says who may read an item (cards, item headers, lists, search results, the audio and movie
 * pages, the paywall) takes its words from here, so 「会員限定」 never means two things.
 *
 * - 無料公開: open to everyone in full (`isPublicPreview`).
 * - 会員限定: a free account opens it (a post in the free-plan list, a コネクト page).
 * - 有料会員限定: only a paid plan opens it (every other post, every audio and movie file).
 *
 * The level is a property of the item, the same for every viewer: what the viewer may read is
 * the access policy's decision (src/lib/access/post-access.ts). The words are the visible
 * text and what screen readers read: no separate aria-label that could drift.
 */

import { readingTimeLabel } from '@/lib/reading-time';
import { formatNumber } from '@/lib/format';

export type AccessLevel = 'open' | 'members' | 'paid';

export type AccessLabel = {
  text: '無料公開' | '会員限定' | '有料会員限定';
  /** The badge's look: one per level (src/components/content/access-badge.tsx). */
  variant: AccessLevel;
  /** What opens the item, in a few words (a tooltip, the paywall). */
  opensWith: string;
};

const LABELS: Record<AccessLevel, AccessLabel> = {
  open: { text: '無料公開', variant: 'open', opensWith: 'どなたでも全文をご覧いただけます' },
  members: { text: '会員限定', variant: 'members', opensWith: '無料の会員登録で読めます' },
  paid: { text: '有料会員限定', variant: 'paid', opensWith: '有料プランでご利用いただけます' },
};

export function accessLabel(level: AccessLevel): AccessLabel {
  return LABELS[level];
}

export type AccessItem =
  | { type: 'posts'; isPublicPreview: boolean; inFreePlan: boolean }
  | { type: 'audios' | 'movies'; isPublicPreview: boolean }
  | { type: 'connect' };

/**
 * An item's access level, from what the policy reads (docs/decisions/000-design-baseline.md,
 * "Who reads what"): public-preview items are open; a members' post in the free-plan list
 * opens with a free account, other members' posts and audio and movie files with a paid plan;
 * コネクト with any account.
 */
export function accessLevelOf(item: AccessItem): AccessLevel {
  if (item.type === 'connect') return 'members';
  if (item.isPublicPreview) return 'open';
  if (item.type === 'posts' && item.inFreePlan) return 'members';
  return 'paid';
}

/** The level a paywall's call to action stands for: a free account or a paid plan. */
export const levelOfStep = (opensWith: 'sign-up' | 'subscribe'): AccessLevel =>
  opensWith === 'sign-up' ? 'members' : 'paid';

/**
 * How much of an item's text stays behind the paywall, as the paywall says it:
 * 「残り約3,200文字（約6分）」, the minutes at the site's reading pace (src/lib/reading-time.ts).
 * The rule: characters of the gated part's text (white space not counted, as a Japanese 字数 is),
 * rounded to the nearest 100 under 10,000 and to the nearest 1,000 from there, never below 100
 * (a count so exact would read as a promise, and 「約0字」 as nothing). Null for no text (a
 * gated part of pictures only): the paywall then says nothing of length rather than a wrong
 * number. The count is made on the server; only this rounded figure leaves it.
 */
export function remainingCharsLabel(chars: number): string | null {
  if (!Number.isFinite(chars) || chars <= 0) return null;
  const step = chars < 10_000 ? 100 : 1_000;
  const rounded = Math.max(100, Math.round(chars / step) * step);
  return `残り約${formatNumber(rounded)}文字（${readingTimeLabel(chars)}）`;
}
