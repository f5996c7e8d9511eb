/**
 * `npm run db:seed`: loads the demo corpus (articles, series, audio, movies, jobs, partners,
 * connect pages, writers and the fixed pages) into the configured database, and copies the
 * demo media into DATA_DIR/uploads. Safe to run again: what exists is left as it is.
 */
import path from 'node:path';
import { env } from '@/env';
import { OperatorError } from '@/lib/errors';
import { findEndpoint } from '../src/lib/cms/model';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { seedDemoContracts } from '@/server/features/seed/demo-contracts';
import { makePrivate } from '@/server/platform/db/lock';
import { openDatabase } from '@/server/platform/db/client';
import { liveLockOwner } from '@/server/platform/db/lock';

async function main(): Promise<number> {
  const config = env();

  if (!config.DATABASE_URL) {
    const owner = liveLockOwner(config.DATA_DIR);
    if (owner) {
      console.error(
        [
          `データディレクトリ ${config.DATA_DIR} は稼働中のサーバー (pid ${owner.pid}) が使用中のため、デモデータを投入できません。`,
          'サーバーを停止してから、もう一度 npm run db:seed を実行してください。',
          '(空の組み込みデータベースなら、最初の npm start で自動的にデモデータが投入されます。)',
          `The data directory is in use by a running server (pid ${owner.pid}); stop it and run npm run db:seed again.`,
        ].join('\n'),
      );
      return 1;
    }
  }

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    migrate: true,
  });
  try {
    const uploads = path.resolve(config.DATA_DIR, 'uploads');
    await copyDemoMedia(uploads);
    makePrivate(uploads); // copies keep the shipped files' 0644
    console.log(
      `デモ用メディアをコピーしました (demo media copied): ${path.join(uploads, 'demo')}`,
    );

    const started = Date.now();
    const { created } = await seedDemoContent(database.db);
    created['partner contracts'] = await seedDemoContracts(database.db);
    console.log(
      `デモデータを投入しました (demo content seeded) → ${database.kind}: ${database.location}`,
    );
    let total = 0;
    for (const [endpoint, count] of Object.entries(created)) {
      total += count;
      const label = findEndpoint(endpoint)?.label ?? endpoint;
      console.log(`  ${label} (${endpoint}): ${count} 件作成 / created`);
    }
    console.log(
      total === 0
        ? '新たに作成したものはありません (すべて投入済みです) / nothing new: already seeded.'
        : `合計 ${total} 件 / ${total} items in ${Date.now() - started} ms`,
    );
  } finally {
    await database.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof OperatorError) {
      console.error(error.message);
      process.exit(1);
    }
    console.error('エラー (error):', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
