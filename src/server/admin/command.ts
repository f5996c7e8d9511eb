import 'server-only';
import type { z } from 'zod';
import type { Database } from '@/server/db/client';

export type AdminContext = {
  database: Database;
  /** Who runs the command, for the audit record: `cli:<os user>`. */
  actor: string;
};

/** Flags as given on the command line: `--email a@b.jp --active` → { email: 'a@b.jp', active: true }. */
export type RawArgs = Record<string, string | true>;

export type AdminCommand<Schema extends z.ZodType = z.ZodType> = {
  name: string;
  summary: string;
  usage: string;
  args: Schema;
  /** Returns the lines to print: what was done. */
  run: (ctx: AdminContext, args: z.output<Schema>) => Promise<string[]>;
};

export function defineCommand<Schema extends z.ZodType>(
  command: AdminCommand<Schema>,
): AdminCommand {
  return command;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseArgv(argv: string[]): { command: string | undefined; args: RawArgs } {
  const [command, ...rest] = argv;
  const args: RawArgs = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (!token.startsWith('--')) throw new UsageError(`予期しない引数です: ${token}`);
    const eq = token.indexOf('=');
    if (eq > 0) {
      args[token.slice(2, eq)] = token.slice(eq + 1);
      continue;
    }
    const next = rest[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      args[token.slice(2)] = next;
      i++;
    } else {
      args[token.slice(2)] = true;
    }
  }
  return { command, args };
}
