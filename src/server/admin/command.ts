import 'server-only';
import { z } from 'zod';
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

/** A command that takes no flags: its usage line is its name, and any flag given is refused. */
export function defineCommandWithoutFlags(
  command: Pick<AdminCommand, 'name' | 'summary'> & {
    run: (ctx: AdminContext) => Promise<string[]>;
  },
): AdminCommand {
  return defineCommand({
    ...command,
    usage: command.name,
    args: z.object({}).strict(),
    run: (ctx) => command.run(ctx),
  });
}

/** Command input that cannot be used: the CLI prints it and exits 2, before any change. */
export class UsageError extends OperatorError {
  override name = 'UsageError';
}
