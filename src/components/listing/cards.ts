import type { CardItem } from './content-card';
import { areaLabel } from '@/components/jobs/job-facts';
import { byline, castLine } from '@/components/content/item-header';
import { accessLevelOf } from '@/lib/access/access-label';
import { formatDurationJa } from '@/lib/format';
import { readingTimeLabel } from '@/lib/reading-time';
import type { ConnectCard, JobCard, MediaCard, PostCard } from '@/server/features/content/lists';

/** Content items as cards: one mapping per type, so every list shows a type the same way. */

const coverOf = (image: { url: string; alt?: string } | undefined) =>
  image ? { url: image.url, alt: image.alt } : null;

export function postCard(post: PostCard): CardItem {
  return {
    href: `/posts/${post.id}`,
    title: post.title,
    kicker: post.category?.name ?? (post.format.includes('insight') ? 'インサイト' : null),
    date: post.publishedAt ?? post.createdAt,
    image: coverOf(post.coverImage),
    meta: byline(post.writers),
    readingTime: post.characters ? readingTimeLabel(post.characters) : null,
    access: accessLevelOf({ type: 'posts', ...post }),
    bookmark: { endpoint: 'posts', contentId: post.id },
  };
}

function mediaCard(endpoint: 'audios' | 'movies', label: string, item: MediaCard): CardItem {
  return {
    href: `/${endpoint}/${item.id}`,
    title: item.title,
    kicker: item.duration ? `${label} ${formatDurationJa(item.duration)}` : label,
    date: item.publishedAt ?? item.createdAt,
    image: coverOf(item.coverImage),
    meta: castLine(item.writers),
    access: accessLevelOf({ type: endpoint, isPublicPreview: item.isPublicPreview }),
    bookmark: { endpoint, contentId: item.id },
  };
}

export const audioCard = (audio: MediaCard) => mediaCard('audios', '音声', audio);
export const movieCard = (movie: MediaCard) => mediaCard('movies', '動画', movie);

export function connectCard(page: ConnectCard): CardItem {
  return {
    href: `/connect/${page.id}`,
    title: page.title,
    kicker: 'コネクト',
    access: accessLevelOf({ type: 'connect' }),
    description: page.description,
    image: coverOf(page.coverImage),
    date: page.publishedAt ?? page.createdAt,
    bookmark: { endpoint: 'connect', contentId: page.id },
  };
}

/**
 * A listing in the home page's compact list: its type and area above the title, the company
 * below, three short lines (the full card, with the pay, is src/components/jobs/job-card.tsx).
 */
export function jobCard(job: JobCard): CardItem {
  const area = areaLabel(job);
  return {
    href: `/jobs/${job.id}`,
    title: job.title,
    kicker: [job.employmentType.join('・'), area].filter(Boolean).join(' ／ ') || '求人',
    meta: job.partner?.name ?? null,
    image: coverOf(job.coverImage),
  };
}
