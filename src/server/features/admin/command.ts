import 'server-only';
import path from 'node:path';
import { z } from 'zod';
import type { RawArgs } from '@/lib/admin/argv';
import { OperatorError } from '@/lib/errors';
import type { Database } from '@/server/platform/db/client';

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

/** A file's path argument (`what` names it in the messages), absolute. */
export const filePath = (what: string) =>
  z
    .string({ error: `${what}を指定してください。` })
    .min(1)
    .max(4096)
    .refine((v) => path.isAbsolute(v), { error: `${what}は絶対パスで指定してください。` });

/**
 * The `out` and `file` arguments of a command that writes or reads a file, made absolute in the
 * CLI process: the command may run inside the server (admin socket), whose directory is not
 * the operator's.
 */
export function absoluteFileArgs(args: RawArgs): RawArgs {
  const out: RawArgs = { ...args };
  for (const flag of ['out', 'file'] as const) {
    const value = out[flag];
    if (typeof value === 'string') out[flag] = path.resolve(value);
  }
  return out;
}

/** Command input that cannot be used: the CLI prints it and exits 2, before any change. */
export class UsageError extends OperatorError {
  override name = 'UsageError';
}
