import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { env, EnvError } from '@/env';
import { newestMtime } from './newest-mtime.mjs';

/** What `next build` reads: if any of it is newer than the build, the build is stale. */
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

export type BuildSettings = Record<(typeof BUILD_SETTINGS)[number], string | undefined>;

/** Why a new build is needed, or null when the existing one is current. */
export function staleBuildReason(root: string, settings: BuildSettings): string | null {
  const buildId = path.join(root, '.next', 'BUILD_ID');
  if (!fs.existsSync(buildId)) return 'no build yet';
  const builtAt = fs.statSync(buildId).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (newestMtime(path.join(root, input)) > builtAt)
      return `${input} changed since the last build`;
  }
  let previous: unknown;
  try {
    previous = JSON.parse(fs.readFileSync(path.join(root, BUILD_SETTINGS_FILE), 'utf8'));
  } catch {
    return 'build settings unknown';
  }
  if (JSON.stringify(previous) !== JSON.stringify(settings))
    return 'SITE_URL, SITE_NAME or GTM_ID changed';
  return null;
}

/** The SITE_URL the existing build baked in, if there is a build. */
export function builtSiteUrl(root: string): string | undefined {
  try {
    const recorded = JSON.parse(
      fs.readFileSync(path.join(root, BUILD_SETTINGS_FILE), 'utf8'),
    ) as Partial<BuildSettings>;
    return recorded.SITE_URL;
  } catch {
    return undefined;
  }
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

export function recordBuildSettings(root: string, settings: BuildSettings): void {
  fs.writeFileSync(path.join(root, BUILD_SETTINGS_FILE), JSON.stringify(settings));
}

export const NEXT_BIN = 'node_modules/next/dist/bin/next';

/** How often a running build says it is still at work (Next.js is silent while it compiles). */
const PROGRESS_EVERY_MS = 20_000;

/**
 * Runs `next build` and records the settings it baked in. Resolves to the exit status. Prints
 * the elapsed time while the build runs, so a first start does not look hung.
 */
export async function runNextBuild(root: string, settings: BuildSettings): Promise<number> {
  const started = Date.now();
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
    recordBuildSettings(root, settings);
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
