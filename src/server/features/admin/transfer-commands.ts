import 'server-only';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from '@/lib/zod';
import { getStorage } from '@/server/platform/storage/storage';
import {
  describeInventory,
  exportWithAudit,
  normalizeBaseUrl,
  runArchiveImport,
  startMicroCmsImport,
} from '@/server/features/transfer';
import type { TransferStatus } from '@/lib/transfer/status';
import {
  type AdminCommand,
  type RawArgs,
  UsageError,
  absoluteFileArgs,
  defineCommand,
  filePath,
} from './command';

/**
 * Import and export from the command line: the same archive and the same microCMS import as
 * /admin/transfer, audited with the CLI user as actor. While the server runs on the embedded
 * database the command runs inside it (admin socket), so paths are made absolute and the
 * microCMS key is read from its environment variable here, in the CLI process, before the
 * command leaves it (localTransferArgs); the key never appears on the command line.
 */

/** The internal flag that carries the key from the CLI process to the command. */
const API_KEY_ARG = 'resolved-api-key';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;

/** Run by scripts/admin.ts in the CLI process, before the command is run or sent. */
export function localTransferArgs(command: string, args: RawArgs): RawArgs {
  const out: RawArgs =
    command === 'export' || command === 'import' ? absoluteFileArgs(args) : { ...args };
  delete out[API_KEY_ARG]; // only ever set here, never taken from the command line
  if (command === 'import-microcms') {
    const name = out['api-key-env'];
    if (typeof name === 'string' && ENV_NAME.test(name)) {
      // The key's variable is named by the admin at run time, so env.ts cannot declare it.
      // eslint-disable-next-line no-restricted-properties
      const key = process.env[name];
      if (!key) throw new UsageError(`環境変数 ${name} に API キーが設定されていません。`);
      out[API_KEY_ARG] = key;
    }
  }
  return out;
}

function countsLine(status: TransferStatus): string {
  const result = status.result!;
  const contents = describeInventory({ contents: result.contents, media: 0 });
  return (
    `コンテンツ: ${contents || 'なし'} / メディア ${result.media} 件` +
    (result.versions ? ` / 版の履歴 ${result.versions} 件` : '') +
    (result.files ? ` / ファイル ${result.files} 件` : '')
  );
}

function outcome(status: TransferStatus): string[] {
  if (status.phase !== 'done') throw new Error(status.error ?? '取り込めませんでした。');
  return [
    `取り込みました (${status.source})。`,
    countsLine(status),
    ...status.warningList.map((w) => `注意: ${w}`),
  ];
}

const exportCommand = defineCommand({
  name: 'export',
  summary: 'すべてのコンテンツとメディアを 1 つのアーカイブ (.tar.gz) に書き出す',
  usage: 'export --out FILE.tar.gz',
  args: z.object({ out: filePath('書き出し先 (--out)') }).strict(),
  async run({ database, actor }, { out }) {
    if (fs.existsSync(out))
      throw new UsageError(`${out} はすでにあります。別の名前を指定してください。`);
    const temp = `${out}.part`;
    const prepared = await exportWithAudit(database.db, getStorage(), { actor });
    try {
      await pipeline(prepared.stream, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      await fsp.rename(temp, out);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
    const { counts } = prepared.manifest;
    const size = (await fsp.stat(out)).size;
    return [
      `書き出しました: ${out} (${(size / 1024 / 1024).toFixed(1)} MB)`,
      `コンテンツ ${counts.contents} 件 / 版の履歴 ${counts.versions} 件 / メディア ${counts.media} 件 / ファイル ${counts.files} 件`,
      ...prepared.missingFiles.map(
        (key) => `注意: 保存先にないため書き出せなかったファイル: ${key}`,
      ),
    ];
  },
});

const importCommand = defineCommand({
  name: 'import',
  summary: '書き出したアーカイブを、空の環境に取り込む (既存のデータとは統合しません)',
  usage: 'import --file FILE.tar.gz',
  args: z.object({ file: filePath('取り込むファイル (--file)') }).strict(),
  async run({ database, actor }, { file }) {
    if (!fs.existsSync(file)) throw new UsageError(`${file} が見つかりません。`);
    const { status } = await runArchiveImport(
      database.db,
      getStorage(),
      fs.createReadStream(file),
      { actor, filename: path.basename(file) },
    );
    return outcome(status);
  },
});

const importMicroCmsCommand = defineCommand({
  name: 'import-microcms',
  summary: 'microCMS のコンテンツとメディアを、空の環境に取り込む (キーは環境変数で渡す)',
  usage:
    'import-microcms --base-url https://SERVICE.microcms.io/api/v1 --api-key-env MICROCMS_API_KEY',
  args: z
    .object({
      'base-url': z.string().transform((value, ctx) => {
        const url = normalizeBaseUrl(value);
        if (!url) {
          ctx.addIssue({
            code: 'custom',
            message: 'https://<サービスID>.microcms.io/api/v1 の形で指定してください。',
          });
          return z.NEVER;
        }
        return url;
      }),
      'api-key-env': z.string().regex(ENV_NAME, { error: '環境変数の名前を指定してください。' }),
      [API_KEY_ARG]: z.string({ error: 'API キーを読み取れませんでした。' }).min(1).max(200),
    })
    .strict(),
  async run({ database, actor }, args) {
    const { done } = startMicroCmsImport(
      database.db,
      getStorage(),
      { baseUrl: args['base-url'], apiKey: args[API_KEY_ARG] },
      { actor },
    );
    return outcome(await done);
  },
});

export const transferCommands: AdminCommand[] = [
  exportCommand,
  importCommand,
  importMicroCmsCommand,
];
