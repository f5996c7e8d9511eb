/**
 * How `npm start`, `npm run admin`, `npm run db:migrate` and `npm run db:seed` run:
 * `node --conditions=react-server scripts/launch.mjs <entry> [args]`. Plain JavaScript, so no
 * TypeScript runner is needed to run the site: it compiles the server entry points when they are
 * missing or older than the source (scripts/compile-server.mjs), then runs the compiled one,
 * which sees the remaining arguments as its own. (`npm start` then builds the site itself when
 * that build is stale: scripts/start.ts.)
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  SERVER_ENTRIES,
  compileServer,
  compiledEntry,
  serverStaleReason,
} from './compile-server.mjs';

const root = path.resolve(import.meta.dirname, '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry || !SERVER_ENTRIES.includes(entry)) {
  console.error(`usage: node scripts/launch.mjs <${SERVER_ENTRIES.join('|')}> [args]`);
  process.exit(2);
}

const reason = serverStaleReason(root);
if (reason) {
  const started = Date.now();
  // On stderr: the admin CLI's standard output may be a file (a CSV, a backup listing).
  console.error(`[build] compiling the server (${reason}) …`);
  try {
    await compileServer(root);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  console.error(`[build] server compiled in ${Date.now() - started} ms`);
}

const script = compiledEntry(root, entry);
process.argv = [process.argv[0] ?? process.execPath, script, ...args];
await import(pathToFileURL(script).href);
