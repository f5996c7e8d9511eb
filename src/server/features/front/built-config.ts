import 'server-only';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Hands the framework the configuration its build resolved (`.next/required-server-files.json`),
 * the way Next's own standalone server does, so that it does not read `next.config.ts` again at
 * start. Reading it means transpiling it with SWC, a native module that stays loaded: about 26 MiB
 * of resident memory for the life of the process (docs/benchmarks.md, "Memory").
 * Without a build the variable stays unset and the framework reports the missing build itself.
 */
// The framework's own variable, not a setting of ours: src/env.ts does not own it.
const VARIABLE = '__NEXT_PRIVATE_STANDALONE_CONFIG';

export function adoptBuiltNextConfig(dir: string): void {
  // eslint-disable-next-line no-restricted-properties
  const variables = process.env;
  if (variables[VARIABLE]) return;
  const file = path.join(dir, '.next', 'required-server-files.json');
  let config: unknown;
  try {
    config = (JSON.parse(fs.readFileSync(file, 'utf8')) as { config?: unknown }).config;
  } catch {
    return;
  }
  if (config && typeof config === 'object') {
    variables[VARIABLE] = JSON.stringify(config);
  }
}
