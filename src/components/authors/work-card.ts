import { audioCard, movieCard, postCard } from '@/components/listing/cards';
import type { CardItem } from '@/components/listing/content-card';
import type { Work } from '@/server/features/content/author-works';

/** A piece on an author page as a card: each type as its own list shows it. */
export function workCard(work: Work): CardItem {
  switch (work.kind) {
    case 'posts':
      return postCard(work.item);
    case 'audios':
      return audioCard(work.item);
    case 'movies':
      return movieCard(work.item);
  }
}
