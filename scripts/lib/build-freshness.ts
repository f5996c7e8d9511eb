import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { env, EnvError } from '@/env';
import {
  changedInput,
  hashInputs,
  readInputRecord,
  recordInputs,
  type InputHashes,
} from './content-hash.mjs';

/**
 * What `next build` reads: if the content of any of it differs from what the build recorded,
 * the build is stale (modification times do not count: a fresh checkout keeps its build).
 */
export const BUILD_INPUTS = [
  'src',
  'public',
  'next.config.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

/** Settings baked into prerendered pages (metadata, GTM): a change needs a new build. */
export const BUILD_SETTINGS = ['SITE_URL', 'SITE_NAME', 'GTM_ID'] as const;
export const BUILD_SETTINGS_FILE = '.next/build-settings.json';
/** The content of BUILD_INPUTS the build was made from (lib/content-hash.mjs). */
export const BUILD_SOURCES_FILE = '.next/build-sources.json';

export type BuildSettings = Record<(typeof BUILD_SETTINGS)[number], string | undefined>;

/** Why a new build is needed, or null when the existing one is current. */
export function staleBuildReason(root: string, settings: BuildSettings): string | null {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return 'no build yet';
  const sources = readInputRecord(path.join(root, BUILD_SOURCES_FILE));
  if (!sources) return 'the sources of the build are not recorded';
  const changed = changedInput(sources, hashBuildInputs(root));
  if (changed) return `${changed} changed since the last build`;
  const previous = builtSettings(root);
  if (!previous) return 'build settings unknown';
  // Named, with the built value: a production start that refuses says what to set.
  const differing = BUILD_SETTINGS.filter(
    (name) => (previous[name] ?? '') !== (settings[name] ?? ''),
  );
  if (differing.length > 0)
    return differing
      .map((name) => `${name} changed (built with ${JSON.stringify(previous[name] ?? '')})`)
      .join(', ');
  return null;
}

/** The settings the existing build baked in, or null when there is no record. */
function builtSettings(root: string): Partial<BuildSettings> | null {
  try {
    return JSON.parse(
      fs.readFileSync(path.join(root, BUILD_SETTINGS_FILE), 'utf8'),
    ) as Partial<BuildSettings>;
  } catch {
    return null;
  }
}

/** The SITE_URL the existing build baked in, if there is a build. */
export function builtSiteUrl(root: string): string | undefined {
  return builtSettings(root)?.SITE_URL;
}

/**
 * The settings of a server started on the build's own SITE_URL (the crash and cluster runs
 * start theirs on free ports and pass that SITE_URL): only the other settings and the inputs
 * can then make the build stale.
 */
export function settingsOnBuiltSiteUrl(root: string): BuildSettings & { SITE_URL: string } {
  const settings = loadBuildSettings();
  return { ...settings, SITE_URL: builtSiteUrl(root) ?? settings.SITE_URL ?? '' };
}

/** Hashes of what `next build` is about to read: taken before it runs, recorded after. */
export function hashBuildInputs(root: string): InputHashes {
  return hashInputs(root, BUILD_INPUTS);
}

/** What a finished build was made from, in its own directory: staleBuildReason compares it. */
export function recordBuild(root: string, settings: BuildSettings, sources: InputHashes): void {
  fs.writeFileSync(path.join(root, BUILD_SETTINGS_FILE), JSON.stringify(settings));
  recordInputs(path.join(root, BUILD_SOURCES_FILE), sources);
}

export const NEXT_BIN = 'node_modules/next/dist/bin/next';

/** How often a running build says it is still at work (Next.js is silent while it compiles). */
const PROGRESS_EVERY_MS = 20_000;

/**
 * Runs `next build` and records the sources and settings it was made from. Resolves to the exit status. Prints
 * the elapsed time while the build runs, so a first start does not look hung.
 */
export async function runNextBuild(root: string, settings: BuildSettings): Promise<number> {
  const started = Date.now();
  // Hashed before building: a file saved during the build leaves the record stale.
  const sources = hashBuildInputs(root);
  fs.rmSync(path.join(root, BUILD_SOURCES_FILE), { force: true });
  console.log(
    '[build] building the production site: the first build takes about a minute on 2 cores.',
  );
  const build = spawn(process.execPath, [path.join(root, NEXT_BIN), 'build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const progress = setInterval(() => {
    console.log(`[build] still building … ${Math.round((Date.now() - started) / 1000)} s`);
  }, PROGRESS_EVERY_MS);
  const status = await new Promise<number>((resolve) => {
    build.on('error', () => resolve(1));
    build.on('close', (code) => resolve(code ?? 1));
  });
  clearInterval(progress);
  if (status === 0) {
    recordBuild(root, settings, sources);
    console.log(`[build] done in ${Math.round((Date.now() - started) / 1000)} s`);
  }
  return status;
}

/** The settings of the current environment that a build bakes in; exits naming a bad variable. */
export function loadBuildSettings(): BuildSettings {
  try {
    const config = env();
    return { SITE_URL: config.SITE_URL, SITE_NAME: config.SITE_NAME, GTM_ID: config.GTM_ID };
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
}
