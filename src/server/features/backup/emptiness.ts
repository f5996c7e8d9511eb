import 'server-only';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';
import {
  contentInventory,
  describeInventory,
  type Inventory,
  isEmptyInventory,
} from '@/server/features/transfer';
import { BackupError } from './errors';

/**
 * The rule of every restore: into an empty instance only (migrated, no users, no content, no
 * media), the archive import's rule (src/server/features/transfer/inventory.ts) extended to users. A
 * refusal says what is in the way.
 */

export type InstanceInventory = Inventory & { users: number };

export async function instanceInventory(db: Db): Promise<InstanceInventory> {
  const [users] = await queryRows<{ count: number }>(
    db,
    sql`SELECT count(*)::int AS count FROM "user"`,
  );
  return { ...(await contentInventory(db)), users: Number(users?.count ?? 0) };
}

/** 「ユーザー 2 人、記事 12 件、メディア 5 件」 */
export function describeInstance(inventory: InstanceInventory): string {
  const parts = inventory.users > 0 ? [`ユーザー ${inventory.users} 人`] : [];
  const content = describeInventory(inventory);
  if (content) parts.push(content);
  return parts.join('、');
}

export function notEmptyForRestore(inventory: InstanceInventory): string | null {
  if (inventory.users === 0 && isEmptyInventory(inventory)) return null;
  return (
    `この環境にはすでにデータがあるため復元できません（${describeInstance(inventory)}）。` +
    '復元は空の環境 (マイグレーションだけを済ませた、新しい DATA_DIR または空のデータベース) にだけ行えます。' +
    '何も変更していません。'
  );
}

export async function assertEmptyForRestore(db: Db): Promise<void> {
  const message = notEmptyForRestore(await instanceInventory(db));
  if (message) throw new BackupError(message, { status: 409 });
}
