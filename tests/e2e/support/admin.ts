import os from 'node:os';
import path from 'node:path';
import { parseArgv } from '../../../src/lib/admin/argv';
import { sendAdminCommand } from '../../../src/server/features/admin/socket-client';
import { E2E_DATA_DIR } from './settings';

/**
 * The admin CLI's commands, sent straight to the running server's admin socket
 * (DATA_DIR/admin.sock, src/server/features/admin/socket.ts) from the Playwright process: what
 * `npm run admin` does while a server holds the embedded database, without starting npm and
 * tsx for every call. The arguments are read by the CLI's own parser and the answer is the
 * lines the CLI would print.
 */

/** Who the audit log names, as for the CLI run by this OS user. */
const ACTOR = `cli:${os.userInfo().username}`;

/** Runs an admin command on the e2e server (through its admin socket). */
export async function admin(...args: string[]): Promise<string[]> {
  return adminIn(E2E_DATA_DIR, ...args);
}

/** The same on the server running on another data directory. */
export async function adminIn(dataDir: string, ...argv: string[]): Promise<string[]> {
  const { command, args } = parseArgv(argv);
  if (!command) throw new Error('admin: no command given');
  // The CLI resolves these paths in its own directory before sending them (scripts/admin.ts).
  for (const flag of ['out', 'file'] as const) {
    const value = args[flag];
    if (typeof value === 'string') args[flag] = path.resolve(value);
  }
  if (command === 'restore' || command === 'import-microcms')
    throw new Error(`admin: ${command} is not sent to a running server`);
  const reply = await sendAdminCommand(dataDir, { command, args, actor: ACTOR });
  if (!reply.ok) throw new Error(`admin ${argv.join(' ')}: ${reply.error}`);
  // As the CLI's printed answer was read: the lines joined, trimmed and split again.
  return reply.lines.join('\n').trim().split('\n');
}
