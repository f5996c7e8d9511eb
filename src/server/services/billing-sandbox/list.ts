import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { invalidRequest, resourceMissing } from './errors';
import { type FieldFilter, type SandboxObject, listObjects, objectSeq } from './object-store';
import type { Params } from './params';

/** Stripe's list envelope and paging parameters (`limit` 1–100, default 10, cursors by id). */
export type ListAnswer = {
  object: 'list';
  data: SandboxObject[];
  has_more: boolean;
  url: string;
};

export async function listAnswer(
  db: Db,
  type: string,
  kind: string,
  params: Params,
  url: string,
  filters: FieldFilter[],
): Promise<ListAnswer> {
  const limit = params.integer('limit', 1, 100) ?? 10;
  const startingAfter = params.string('starting_after');
  const endingBefore = params.string('ending_before');
  if (startingAfter && endingBefore) {
    throw invalidRequest(
      'You may only specify one of these parameters: ending_before, starting_after.',
    );
  }
  const cursorSeq = async (id: string, param: string) => {
    const seq = await objectSeq(db, type, id);
    if (seq === null) throw resourceMissing(kind, id, param);
    return seq;
  };
  const page = await listObjects(db, type, {
    filters,
    limit,
    startingAfterSeq: startingAfter ? await cursorSeq(startingAfter, 'starting_after') : undefined,
    endingBeforeSeq: endingBefore ? await cursorSeq(endingBefore, 'ending_before') : undefined,
  });
  return { object: 'list', data: page.data, has_more: page.hasMore, url };
}
