/**
 * The admin CLI's command line, read the same way wherever a command is sent from: the CLI
 * (scripts/admin.ts) and the end-to-end fixture that talks to the admin socket directly
 * (tests/e2e/support/admin.ts). Pure, so neither needs the server's modules to parse.
 */

// Relative: the end-to-end fixture imports this file without the `@/` alias.
import { OperatorError } from '../errors';

/**
 * Flags as given on the command line: `--email a@b.jp --active` → { email: 'a@b.jp', active: true };
 * a flag given with a value more than once (`--domain a.jp --domain b.jp`) → its values in order.
 */
export type RawArgs = Record<string, string | true | string[]>;

/** Sets a flag's value; a second value of the same flag makes a list (a command that takes one refuses it). */
function setFlag(args: RawArgs, name: string, value: string | true): void {
  const before = args[name];
  if (typeof before === 'string' && typeof value === 'string') args[name] = [before, value];
  else if (Array.isArray(before) && typeof value === 'string') args[name] = [...before, value];
  else args[name] = value;
}

/** A command line that cannot be read (the CLI exits 2, as for any usage error). */
export class ArgvError extends OperatorError {
  override name = 'ArgvError';
}

export function parseArgv(argv: string[]): { command: string | undefined; args: RawArgs } {
  const [command, ...rest] = argv;
  const args: RawArgs = {};
  for (let i = 0; i < rest.length; i++) {
    const token = rest[i]!;
    if (!token.startsWith('--')) throw new ArgvError(`予期しない引数です: ${token}`);
    const eq = token.indexOf('=');
    if (eq > 0) {
      setFlag(args, token.slice(2, eq), token.slice(eq + 1));
      continue;
    }
    const next = rest[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      setFlag(args, token.slice(2), next);
      i++;
    } else {
      setFlag(args, token.slice(2), true);
    }
  }
  return { command, args };
}
