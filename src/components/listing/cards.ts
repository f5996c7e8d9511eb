import type { CardItem } from './content-card';
import { formatDurationJa } from '@/lib/format';
import type { AudioCard, ConnectCard, JobCard, MovieCard, PostCard } from '@/server/content/lists';

/** Content items as cards: one mapping per type, so every list shows a type the same way. */

const writersLine = (writers: { name: string }[]) =>
  writers.length ? `文・${writers.map((w) => w.name).join('、')}` : null;

export function postCard(post: PostCard): CardItem {
  return {
    href: `/posts/${post.id}`,
    title: post.title,
    kicker: post.category?.name ?? (post.format.includes('insight') ? 'インサイト' : null),
    date: post.publishedAt ?? post.createdAt,
    image: post.coverImage ? { url: post.coverImage.url, alt: post.coverImage.alt } : null,
    meta: writersLine(post.writers),
    membersOnly: !post.isPublicPreview,
    bookmark: { endpoint: 'posts', contentId: post.id },
  };
}

export function audioCard(audio: AudioCard): CardItem {
  return {
    href: `/audios/${audio.id}`,
    title: audio.title,
    kicker: audio.duration ? `音声 ${formatDurationJa(audio.duration)}` : '音声',
    date: audio.publishedAt ?? audio.createdAt,
    image: audio.coverImage ? { url: audio.coverImage.url, alt: audio.coverImage.alt } : null,
    meta: writersLine(audio.writers),
    membersOnly: !audio.isPublicPreview,
    bookmark: { endpoint: 'audios', contentId: audio.id },
  };
}

export function movieCard(movie: MovieCard): CardItem {
  return {
    href: `/movies/${movie.id}`,
    title: movie.title,
    kicker: movie.duration ? `動画 ${formatDurationJa(movie.duration)}` : '動画',
    date: movie.publishedAt ?? movie.createdAt,
    image: movie.coverImage ? { url: movie.coverImage.url, alt: movie.coverImage.alt } : null,
    meta: writersLine(movie.writers),
    membersOnly: !movie.isPublicPreview,
    bookmark: { endpoint: 'movies', contentId: movie.id },
  };
}

export function connectCard(page: ConnectCard): CardItem {
  return {
    href: `/connect/${page.id}`,
    title: page.title,
    kicker: 'コネクト',
    description: page.description,
    image: page.coverImage ? { url: page.coverImage.url, alt: page.coverImage.alt } : null,
    date: page.publishedAt ?? page.createdAt,
    bookmark: { endpoint: 'connect', contentId: page.id },
  };
}

export function jobCard(job: JobCard): CardItem {
  return {
    href: `/jobs/${job.id}`,
    title: job.title,
    kicker: job.employmentType.join('・') || '求人',
    meta: [job.partner?.name, job.location].filter(Boolean).join(' ／ ') || null,
    image: job.coverImage ? { url: job.coverImage.url, alt: job.coverImage.alt } : null,
    date: job.publishedAt ?? job.createdAt,
  };
}
