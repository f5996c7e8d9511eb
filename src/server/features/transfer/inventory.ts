import 'server-only';
import { sql } from 'drizzle-orm';
import { CONTENT_MODEL, findEndpoint } from '@/lib/cms/model';
import { type Db, queryRows } from '@/server/platform/db/client';
import { TransferError } from './errors';

/**
 * What the content service holds, for the one rule of every import: it goes into an empty
 * instance only (no merge), and a refusal says what is in the way.
 */

export type Inventory = {
  /** Content items per endpoint (only endpoints that have some). */
  contents: Record<string, number>;
  media: number;
};

export async function contentInventory(db: Db): Promise<Inventory> {
  const rows = await queryRows<{ endpoint: string; count: number }>(
    db,
    sql`SELECT endpoint, count(*)::int AS count FROM cms_contents GROUP BY endpoint ORDER BY endpoint`,
  );
  const [media] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM cms_media`,
  );
  return {
    contents: Object.fromEntries(rows.map((r) => [r.endpoint, Number(r.count)])),
    media: Number(media?.count ?? 0),
  };
}

export function isEmptyInventory(inventory: Inventory): boolean {
  return Object.keys(inventory.contents).length === 0 && inventory.media === 0;
}

const label = (endpoint: string) => findEndpoint(endpoint)?.label ?? endpoint;

/** Endpoint → label (記事, 特集, …), in the content model's order, for the screen. */
export function endpointLabels(): Record<string, string> {
  return Object.fromEntries(CONTENT_MODEL.map((d) => [d.endpoint, d.label]));
}

/** 「記事 12 件、特集 3 件、メディア 5 件」: what is there, in the editors' words. */
export function describeInventory(inventory: Inventory): string {
  // In the content model's order (記事 first), unknown endpoints last.
  const rank = (e: string) => {
    const i = CONTENT_MODEL.findIndex((d) => d.endpoint === e);
    return i < 0 ? CONTENT_MODEL.length : i;
  };
  const parts = Object.entries(inventory.contents)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([e, n]) => `${label(e)} ${n} 件`);
  if (inventory.media > 0) parts.push(`メディア ${inventory.media} 件`);
  return parts.join('、');
}

/** The refusal when the instance is not empty; null when it is. */
export function notEmptyMessage(inventory: Inventory): string | null {
  if (isEmptyInventory(inventory)) return null;
  return (
    `この環境にはすでにコンテンツがあるため取り込めません（${describeInventory(inventory)}）。` +
    '取り込みは空の環境にだけ行えます。既存のデータと混ぜることはできません。'
  );
}

export class NotEmptyError extends TransferError {
  constructor(message: string) {
    super(message, { status: 409, code: 'transfer-not-empty' });
    this.name = 'NotEmptyError';
  }
}

export async function assertEmpty(db: Db): Promise<void> {
  const message = notEmptyMessage(await contentInventory(db));
  if (message) throw new NotEmptyError(message);
}
