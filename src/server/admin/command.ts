import 'server-only';
import type { z } from 'zod';
import type { RawArgs } from '@/lib/admin/argv';
import { OperatorError } from '@/lib/errors';
import type { Database } from '@/server/db/client';

export type AdminContext = {
  database: Database;
  /** Who runs the command, for the audit record: `cli:<os user>`. */
  actor: string;
};

/** The flags, as the shared parser reads them (src/lib/admin/argv.ts). */
export type { RawArgs };

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

/** Command input that cannot be used: the CLI prints it and exits 2, before any change. */
export class UsageError extends OperatorError {
  override name = 'UsageError';
}
