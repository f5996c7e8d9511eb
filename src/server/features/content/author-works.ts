import 'server-only';
import { mergedWindow } from '@/lib/authors/works';
import type { MediaCard, Page, PostCard } from './lists';
import { LIST_PAGE_SIZE, listAudios, listMovies, listPosts } from './lists';

/**
 * Everything one writer wrote or appears in, newest first, one page at a time: their posts,
 * audios and movies merged (src/lib/authors/works.ts). Each type is read through the same list
 * functions as its own list page (card fields only, access labels included), up to the end of
 * the page asked for, then merged and cut.
 */

export type Work =
  | { kind: 'posts'; item: PostCard }
  | { kind: 'audios'; item: MediaCard }
  | { kind: 'movies'; item: MediaCard };

/** The content service answers at most this many items at once (microCMS's limit). */
const READ_SIZE = 100;

/** The first `need` items of a list (fewer when it has fewer), and how many it has in all. */
async function firstItems<T>(
  read: (page: number, size: number) => Promise<Page<T>>,
  need: number,
): Promise<{ items: T[]; total: number }> {
  const size = Math.min(Math.max(1, need), READ_SIZE);
  const first = await read(1, size);
  const items = [...first.items];
  for (let page = 2; items.length < need && page <= first.totalPages; page++)
    items.push(...(await read(page, size)).items);
  return { items: items.slice(0, need), total: first.totalCount };
}

export async function listWorksBy(
  writerId: string,
  options: { page?: number; size?: number } = {},
): Promise<Page<Work>> {
  const page = Math.max(1, options.page ?? 1);
  const size = options.size ?? LIST_PAGE_SIZE;
  const need = page * size;
  const [posts, audios, movies] = await Promise.all([
    firstItems((p, s) => listPosts({ writer: writerId, page: p, size: s }), need),
    firstItems((p, s) => listAudios(p, s, { writer: writerId }), need),
    firstItems((p, s) => listMovies(p, s, { writer: writerId }), need),
  ]);
  const works: Work[][] = [
    posts.items.map((item) => ({ kind: 'posts', item })),
    audios.items.map((item) => ({ kind: 'audios', item })),
    movies.items.map((item) => ({ kind: 'movies', item })),
  ];
  const totalCount = posts.total + audios.total + movies.total;
  const items = mergedWindow(works, (page - 1) * size, size, (work) => ({
    id: `${work.kind}/${work.item.id}`,
    publishedAt: work.item.publishedAt,
    createdAt: work.item.createdAt,
  }));
  return { items, totalCount, page, totalPages: Math.max(1, Math.ceil(totalCount / size)) };
}
