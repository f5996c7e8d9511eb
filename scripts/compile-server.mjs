/**
 * Compiles the server's entry points (scripts/start.ts, dev.ts, admin.ts, db-migrate.ts,
 * seed.ts) into plain JavaScript under dist/server, so that running the site needs no
 * TypeScript runner.
 * esbuild bundles the project's own code (the `@/` alias of tsconfig.json, the `react-server`
 * export condition the server modules are written for) and leaves every package of
 * node_modules to Node. Plain JavaScript itself, so that a fresh clone can run it.
 *
 * `node scripts/compile-server.mjs` compiles; scripts/launch.mjs compiles when stale, in a
 * development checkout only (lib/production-install.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { changedInput, hashInputs, readInputRecord, recordInputs } from './lib/content-hash.mjs';

export const SERVER_ENTRIES = ['start', 'dev', 'admin', 'db-migrate', 'seed'];
export const SERVER_OUT_DIR = 'dist/server';
/** Written after a successful compile: the content of the inputs it was compiled from. */
const RECORD = 'compiled-from.json';
/** What the compiled server is made of: if any of it differs from the record, it is stale. */
const INPUTS = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** Why the compiled server must be compiled again, or null when it is current. */
export function serverStaleReason(root) {
  if (!fs.existsSync(compiledEntry(root, 'start'))) return 'not compiled yet';
  const record = readInputRecord(path.join(root, SERVER_OUT_DIR, RECORD));
  if (!record) return 'what it was compiled from is not recorded';
  const changed = changedInput(record, hashInputs(root, INPUTS));
  return changed ? `${changed} changed since it was compiled` : null;
}

export function compiledEntry(root, name) {
  return path.join(root, SERVER_OUT_DIR, `${name}.js`);
}

/**
 * The project's own server modules, marked free of side effects, so that an entry point leaves
 * out every module none of whose exports it uses. A feature is reached through its index.ts
 * (docs/decisions/045-server-tiers.md), which re-exports all that other features use; without
 * this, an entry point would load all of it: the admin CLI, the pages' session helpers and the
 * Next.js request modules behind them (which Node cannot load outside Next.js). Nothing in
 * src/server is imported for its side effects alone.
 */
const serverModulesWithoutSideEffects = (root) => ({
  name: 'server-modules-without-side-effects',
  setup(build) {
    const server = path.join(root, 'src', 'server') + path.sep;
    build.onResolve({ filter: /^(@\/|\.)/ }, async (args) => {
      if (args.pluginData?.resolving) return undefined;
      const { importer, namespace, resolveDir, kind, with: attributes } = args;
      const resolved = await build.resolve(args.path, {
        importer,
        namespace,
        resolveDir,
        kind,
        with: attributes,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const { path: file, external } = resolved;
      if (external || !file.startsWith(server)) return { path: file, external };
      return { path: file, sideEffects: false };
    });
  },
});

/**
 * esbuild's build, then esbuild's service process ended. scripts/launch.mjs compiles in the
 * process that then serves the site: a service left running stayed its child for the server's
 * whole life, about 100 MiB of the process tree (docs/benchmarks.md, "The whole process tree").
 */
export async function buildOnce(esbuild, options) {
  try {
    return await esbuild.build(options);
  } finally {
    await esbuild.stop();
  }
}

/** Compiles every entry point; throws (with esbuild's messages printed) when it fails. */
export async function compileServer(root) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error(
      'esbuild is not installed: run `npm install` (with the development packages) and try again.',
    );
  }
  // Hashed before compiling: a file saved during the compile leaves the record stale.
  const inputs = hashInputs(root, INPUTS);
  const outdir = path.join(root, SERVER_OUT_DIR);
  fs.rmSync(outdir, { recursive: true, force: true });
  await buildOnce(esbuild, {
    absWorkingDir: root,
    entryPoints: Object.fromEntries(SERVER_ENTRIES.map((name) => [name, `scripts/${name}.ts`])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Packages stay in node_modules and are loaded by Node, under the same condition.
    packages: 'external',
    conditions: ['react-server'],
    tsconfig: path.join(root, 'tsconfig.json'),
    // Each entry whole in one file: a running server never loads a chunk a later compile replaced.
    splitting: false,
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [serverModulesWithoutSideEffects(root)],
  });
  recordInputs(path.join(outdir, RECORD), inputs);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(import.meta.dirname, '..');
  const started = Date.now();
  try {
    await compileServer(root);
    console.log(`[build] server compiled to ${SERVER_OUT_DIR} in ${Date.now() - started} ms`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
