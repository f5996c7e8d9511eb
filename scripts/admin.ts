/**
 * The admin CLI: `npm run admin -- <command> [--flag value ...]`.
 * On a PostgreSQL server it connects directly. On the embedded database it opens the data
 * directory itself, or, when the site is running on it, asks the running server over its
 * admin socket (PGlite allows one process).
 */
import os from 'node:os';
import { env } from '@/env';
import { parseArgv } from '@/lib/admin/argv';
import { OperatorError } from '@/lib/errors';
import { UsageError } from '@/server/features/admin/command';
import { helpText, findCommand, runAdminCommand } from '@/server/features/admin/commands';
import { sendAdminCommand } from '@/server/features/admin/socket-client';
import { localBackupArgs, restoreWhileServing } from '@/server/features/admin/backup-commands';
import { localBounceArgs, mailPipeCommand } from '@/server/features/admin/newsletter-commands';
import { localTransferArgs } from '@/server/features/admin/transfer-commands';
import { openDatabase } from '@/server/platform/db/client';
import { liveLockOwner } from '@/server/platform/db/lock';

/** sysexits.h: a temporary failure, which mail servers retry. */
const EX_TEMPFAIL = 75;

async function main(): Promise<number> {
  const { command, args: given } = parseArgv(process.argv.slice(2));
  if (!command || command === 'help' || command === '--help' || given.help) {
    console.log(helpText().join('\n'));
    return command ? 0 : 1;
  }
  findCommand(command); // unknown commands fail before any database is opened
  // Paths and the microCMS key resolved here, in the CLI process (the command may run in the server).
  // newsletter-bounce reads its mail from standard input here.
  const args = await localBounceArgs(
    command,
    localBackupArgs(command, localTransferArgs(command, given)),
  );
  const config = env();
  const actor = `cli:${os.userInfo().username}`;

  if (!config.DATABASE_URL && liveLockOwner(config.DATA_DIR)) {
    if (command === 'restore') throw new UsageError(restoreWhileServing(config.DATA_DIR));
    const reply = await sendAdminCommand(config.DATA_DIR, { command, args, actor }).catch(
      (error: Error) => {
        throw new Error(
          `データディレクトリ ${config.DATA_DIR} は稼働中のサーバーが使用中ですが、その管理ソケットに接続できません (${error.message})。`,
        );
      },
    );
    if (!reply.ok) throw reply.usage ? new UsageError(reply.error) : new Error(reply.error);
    console.log(reply.lines.join('\n'));
    return 0;
  }

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
  });
  try {
    console.log((await runAdminCommand({ database, actor }, command, args)).join('\n'));
  } finally {
    await database.close();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Settings, the data directory's lock, the command line or its input (UsageError, ArgvError,
    // EnvError, DataDirLockedError): the message says what to do.
    if (error instanceof OperatorError) {
      console.error(error.message);
      process.exit(2);
    }
    console.error('エラー:', error instanceof Error ? error.message : error);
    // A mail server piping a bounce in keeps the mail and tries again later on EX_TEMPFAIL (the
    // database was unreachable, say) instead of returning it.
    process.exit(mailPipeCommand(process.argv.slice(2)) ? EX_TEMPFAIL : 1);
  },
);
