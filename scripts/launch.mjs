/**
 * How `npm start`, `npm run dev`, `npm run admin`, `npm run db:migrate` and `npm run db:seed`
 * run: `node --conditions=react-server scripts/launch.mjs <entry> [args]`. Plain JavaScript, so no
 * TypeScript runner is needed to run the site: in a development checkout it compiles the server
 * entry points when they are missing or their sources' content changed (scripts/compile-server.mjs);
 * a production install refuses instead (lib/production-install.mjs). Then it runs the compiled
 * one, which sees the remaining arguments as its own. (`npm start` then decides the same way
 * about the site's build: scripts/start.ts.)
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  SERVER_ENTRIES,
  SERVER_OUT_DIR,
  compileServer,
  compiledEntry,
  serverStaleReason,
} from './compile-server.mjs';
import { productionInstallReason, productionRefusal } from './lib/production-install.mjs';

const root = path.resolve(import.meta.dirname, '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry || !SERVER_ENTRIES.includes(entry)) {
  console.error(`usage: node scripts/launch.mjs <${SERVER_ENTRIES.join('|')}> [args]`);
  process.exit(2);
}

const reason = serverStaleReason(root);
if (reason) {
  // On stderr: the admin CLI's standard output may be a file (a CSV, a backup listing).
  const production = productionInstallReason(root);
  if (production) {
    console.error(productionRefusal(SERVER_OUT_DIR, reason, production));
    process.exit(1);
  }
  const started = Date.now();
  console.error(`[build] development checkout: compiling the server (${reason}) …`);
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
