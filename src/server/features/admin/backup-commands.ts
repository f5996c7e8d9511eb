import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { z } from '@/lib/zod';
import { backupWithAudit, describeInstance, restoreWithAudit } from '@/server/features/backup';
import { getStorage } from '@/server/platform/storage/storage';
import {
  type AdminCommand,
  type RawArgs,
  UsageError,
  absoluteFileArgs,
  defineCommand,
  filePath,
} from './command';

/**
 * `backup` and `restore`: the whole instance (every table, every media file) in one .tar.gz
 * (src/server/features/backup). While the site runs on the embedded database, `backup` runs inside the
 * server (admin socket), so the path is made absolute here, in the CLI process
 * (localBackupArgs); `restore` is refused there (restoreWhileServing), since it must not
 * replace a running site's data underneath it.
 */

export function localBackupArgs(command: string, args: RawArgs): RawArgs {
  return command === 'backup' || command === 'restore' ? absoluteFileArgs(args) : args;
}

/** The refusal of `restore` while a server holds the embedded database. */
export function restoreWhileServing(dataDir: string): string {
  return (
    `データディレクトリ ${dataDir} は稼働中のサイトが使用しているため、復元できません。` +
    'サイトを止め、新しい空の DATA_DIR を指定して restore を実行してから、その DATA_DIR でサイトを起動してください。'
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const MAX_LISTED = 10;

const backupCommand = defineCommand({
  name: 'backup',
  summary:
    'データベースのすべてのテーブルとメディアファイルを 1 つのバックアップ (.tar.gz) に書き出す',
  usage: 'backup --out FILE.tar.gz',
  args: z.object({ out: filePath('書き出し先 (--out)') }).strict(),
  async run({ database, actor }, { out }) {
    if (fs.existsSync(out))
      throw new UsageError(`${out} はすでにあります。別の名前を指定してください。`);
    const result = await backupWithAudit(database, getStorage(), { out, actor });
    const { manifest } = result;
    const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
    const last = manifest.migrations.at(-1);
    const missing = result.missingFiles;
    return [
      `バックアップを書き出しました: ${result.file} (${megabytes(result.bytes)})`,
      `テーブル ${manifest.tables.length} / 行 ${rows} / メディアファイル ${manifest.files.count} 件 (${megabytes(manifest.files.bytes)}) / ` +
        `マイグレーション ${manifest.migrations.length} 件${last?.tag ? ` (最後は ${last.tag})` : ''}`,
      'このファイルにはパスワードのハッシュ、ログイン中のセッション、API キーのハッシュが含まれます。' +
        '所有者だけが読める権限 (0600) で書き出しました。第三者が読めない場所に保管してください。',
      '署名の鍵 (APP_SECRET または <DATA_DIR>/app-secret) は含まれません。バックアップとは別の安全な場所に保管してください。',
      ...missing
        .slice(0, MAX_LISTED)
        .map((key) => `注意: 保存先にないため含めなかったファイル: ${key}`),
      ...(missing.length > MAX_LISTED
        ? [`注意: ほかに ${missing.length - MAX_LISTED} 件のファイルが保存先にありません。`]
        : []),
    ];
  },
});

const restoreCommand = defineCommand({
  name: 'restore',
  summary: 'バックアップを、空の環境 (ユーザーもコンテンツもない) に復元する',
  usage: 'restore --file FILE.tar.gz',
  args: z.object({ file: filePath('復元するファイル (--file)') }).strict(),
  async run({ database, actor }, { file }) {
    if (!fs.existsSync(file)) throw new UsageError(`${file} が見つかりません。`);
    const result = await restoreWithAudit(database, getStorage(), { file, actor });
    const { manifest } = result;
    return [
      `復元しました: ${path.basename(file)} (作成 ${manifest.createdAt}、アプリ ${manifest.appVersion}、${manifest.database.kind} から)`,
      `テーブル ${manifest.tables.length} / 行 ${result.rows} / メディアファイル ${result.files} 件`,
      `この環境の内容: ${describeInstance(result.inventory) || 'なし'}`,
      '元の環境と同じ APP_SECRET (または <DATA_DIR>/app-secret の内容) で起動してください。' +
        '鍵が違うと全員がログアウトされ、発行済みの署名付きメディア URL とプレビューのリンクが無効になります (パスワードとデータはそのまま使えます)。',
    ];
  },
});

export const backupCommands: AdminCommand[] = [backupCommand, restoreCommand];
