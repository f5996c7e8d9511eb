import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '@/server/platform/db/lock';
import { hashBuildInputs, recordBuild } from './lib/build-freshness';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

type Outcome = { code: number | null; stdout: string; stderr: string };

/** What start says when it has decided to serve the build it found. */
const SERVES_THE_BUILD = 'the build in .next matches the sources and settings';

/**
 * Runs `npm start`'s script in `cwd` (the tree whose `.next` it judges; this tree by default).
 * It is killed (with the build it started) the moment it says it is building, so that a
 * regression does not rebuild this tree's `.next`, or that it serves the build it found.
 */
function startScript(env: Record<string, string>, cwd = root): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', path.join(root, 'scripts/launch.mjs'), 'start'],
      {
        cwd,
        env: { ...process.env, ...env },
        detached: true, // its own process group, so a kill reaches `next build` too
      },
    );
    const out = { stdout: '', stderr: '' };
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(kill, 45_000); // it must stop on its own well before this
    child.stdout.on('data', (chunk: Buffer) => {
      out.stdout += chunk.toString();
      if (out.stdout.includes('building') || out.stdout.includes(SERVES_THE_BUILD)) kill();
    });
    child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ...out });
    });
  });
}

/** What a build leaves: its id's mtime and the settings it baked in (null when absent). */
function buildState() {
  const read = (file: string) => {
    try {
      return { mtimeMs: fs.statSync(file).mtimeMs, text: fs.readFileSync(file, 'utf8') };
    } catch {
      return null;
    }
  };
  return {
    buildId: read(path.join(root, '.next', 'BUILD_ID')),
    settings: read(path.join(root, '.next', 'build-settings.json')),
  };
}

describe('npm start', () => {
  it('stops before building when a setting is bad, naming the variable', async () => {
    const result = await run(
      process.execPath,
      ['--conditions=react-server', 'scripts/launch.mjs', 'start'],
      {
        cwd: root,
        env: { ...process.env, PORT: 'abc', GTM_ID: 'UA-1' },
      },
    ).then(
      () => ({ code: 0, stderr: '', stdout: '' }),
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT:');
    expect(result.stderr).toContain('GTM_ID:');
    expect(result.stdout).not.toContain('building');
  });

  it('refuses a data directory another process holds before it decides to build', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-start-locked-'));
    const lock = acquireDataDirLock(dataDir); // the running server, as far as the lock says
    const before = buildState();
    try {
      const result = await startScript({
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        // A setting baked into the build: on its own it would make the start rebuild.
        SITE_NAME: `別のサイト ${process.pid}`,
        PORT: String(20_000 + (process.pid % 20_000)),
      });
      expect(result.stdout).not.toContain('building');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`データディレクトリ ${dataDir} は別のプロセス`);
      expect(result.stderr).toContain(`is in use by pid ${process.pid}`);
      expect(buildState()).toEqual(before);
    } finally {
      lock.release();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a server database without STRIPE_SECRET_KEY unless BILLING_SANDBOX=true', async () => {
    const before = buildState();
    const result = await startScript({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      STRIPE_SECRET_KEY: '',
      BILLING_SANDBOX: '',
      PORT: String(20_000 + ((process.pid + 1) % 20_000)),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('STRIPE_SECRET_KEY がありません');
    expect(result.stderr).toContain('BILLING_SANDBOX=true');
    expect(result.stdout).not.toContain('building');
    expect(buildState()).toEqual(before);
  });

  it('refuses a server database while the operator details of the 特商法 page are unset', async () => {
    const before = buildState();
    const result = await startScript({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      BILLING_SANDBOX: 'true',
      OPERATOR_NAME: '',
      OPERATOR_REPRESENTATIVE: '',
      OPERATOR_ADDRESS: '',
      OPERATOR_PHONE: '',
      OPERATOR_EMAIL: '',
      PORT: String(20_000 + ((process.pid + 2) % 20_000)),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('運営者の情報');
    expect(result.stderr).toContain('OPERATOR_NAME');
    expect(result.stdout).not.toContain('building');
    expect(buildState()).toEqual(before);
  });
});

/**
 * Every file and folder under `dir` (not following node_modules' link) dated `hours` from now:
 * a fresh checkout's sources are newer than the build they came with.
 */
function redate(dir: string, hours = 1): void {
  const at = Date.now() / 1000 + hours * 3600;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) redate(full, hours);
    fs.utimesSync(full, at, at);
  }
  fs.utimesSync(dir, at, at);
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/** The files of a tree (skipping node_modules), with their contents: what a refusal must not touch. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !full.includes('node_modules'))
      files[path.relative(dir, full)] = fs.readFileSync(full, 'utf8');
  }
  return files;
}

/**
 * The launcher in a small tree of its own: this repository's launch.mjs and compile-server.mjs
 * (and the libraries they import) with one-line entry points, so that a compile takes
 * milliseconds and never touches this tree's dist/server. With `packages`, node_modules is this
 * tree's (a development checkout); without, there are no development packages.
 */
describe('scripts/launch.mjs compiles the server only in a development checkout, by content', () => {
  let tree: string;
  const launch = (env: Record<string, string> = {}) =>
    run(
      process.execPath,
      ['--conditions=react-server', path.join(tree, 'scripts/launch.mjs'), 'start', 'x'],
      { cwd: tree, env: { ...process.env, ...env } },
    ).then(
      ({ stdout, stderr }): Outcome => ({ code: 0, stdout, stderr }),
      (error: Outcome) => error,
    );
  const makeTree = (packages: boolean) => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-launch-'));
    for (const file of ['launch.mjs', 'compile-server.mjs'])
      fs.cpSync(path.join(root, 'scripts', file), path.join(tree, 'scripts', file));
    for (const file of fs.readdirSync(path.join(root, 'scripts/lib')))
      if (file.endsWith('.mjs'))
        fs.cpSync(path.join(root, 'scripts/lib', file), path.join(tree, 'scripts/lib', file));
    writeFiles(tree, {
      ...Object.fromEntries(
        ['start', 'dev', 'admin', 'db-migrate', 'seed'].map((entry) => [
          `scripts/${entry}.ts`,
          `console.log('ran ${entry}', process.argv.slice(2).join(' '));\n`,
        ]),
      ),
      'src/a.ts': 'export const a = 1;\n',
      'package.json': '{ "type": "module" }\n',
      'package-lock.json': '{}\n',
      'tsconfig.json': '{}\n',
    });
    if (packages) fs.symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
  };
  afterEach(() => fs.rmSync(tree, { recursive: true, force: true }));

  it('compiles when missing or when a source changed, not when only the file times did', async () => {
    makeTree(true);
    const first = await launch();
    expect(first.stderr).toContain('development checkout: compiling the server (not compiled yet)');
    expect(first.stdout).toBe('ran start x\n');

    redate(path.join(tree, 'src'));
    redate(path.join(tree, 'scripts'));
    const again = await launch();
    expect(again.stderr).not.toContain('compiling');
    expect(again.stdout).toBe('ran start x\n');

    fs.writeFileSync(path.join(tree, 'src/a.ts'), 'export const a = 2;\n');
    const changed = await launch();
    expect(changed.stderr).toContain('compiling the server (src changed since it was compiled)');
  });

  it('refuses a missing compiled server without the development packages, compiling nothing', async () => {
    makeTree(false);
    const result = await launch();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('起動できません (cannot start)');
    expect(result.stderr).toContain('dist/server');
    expect(result.stderr).toContain('not compiled yet');
    expect(result.stderr).toContain('node_modules/typescript is missing');
    expect(result.stderr).toContain('npm run build');
    expect(result.stdout).toBe('');
    expect(fs.existsSync(path.join(tree, 'dist'))).toBe(false);
  });

  it('under NODE_ENV=production runs a current compile and refuses a stale one, though esbuild is there', async () => {
    makeTree(true);
    await launch(); // built in the development checkout
    const built = snapshot(path.join(tree, 'dist'));
    redate(tree); // deployed: a fresh checkout of the same sources, newer than the build
    redate(path.join(tree, 'dist'), -1);

    const current = await launch({ NODE_ENV: 'production' });
    expect(current.stderr).toBe('');
    expect(current.stdout).toBe('ran start x\n');

    fs.writeFileSync(path.join(tree, 'scripts/seed.ts'), 'console.log("changed");\n');
    const stale = await launch({ NODE_ENV: 'production' });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('scripts changed since it was compiled');
    expect(stale.stderr).toContain('NODE_ENV=production');
    expect(stale.stdout).toBe('');
    expect(snapshot(path.join(tree, 'dist'))).toEqual(built);
  });
});

/**
 * start's decision about the site's build, judged in a small tree of its own (start runs in the
 * directory npm gives it): a fake build whose record is made by the code `npm run build` uses.
 */
describe('npm start builds the site only in a development checkout, by content', () => {
  let tree: string;
  let dataDir: string;
  const settings = {
    SITE_URL: 'http://localhost:3999',
    SITE_NAME: `ビルド判定 ${process.pid}`,
    GTM_ID: undefined,
  };
  const start = (env: Record<string, string> = {}) =>
    startScript(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SITE_URL: settings.SITE_URL,
        SITE_NAME: settings.SITE_NAME,
        GTM_ID: '',
        PORT: String(20_000 + ((process.pid + 3) % 20_000)),
        ...env,
      },
      tree,
    );
  const makeTree = (packages: boolean) => {
    writeFiles(tree, {
      'src/app/page.tsx': 'export default function Page() { return null; }\n',
      'public/robots.txt': 'User-agent: *\n',
      'next.config.ts': 'export default {};\n',
      'package.json': '{ "type": "module" }\n',
      'package-lock.json': '{}\n',
      'tsconfig.json': '{}\n',
      '.next/BUILD_ID': 'fake\n',
    });
    recordBuild(tree, settings, hashBuildInputs(tree));
    if (packages) fs.symlinkSync(path.join(root, 'node_modules'), path.join(tree, 'node_modules'));
    redate(tree); // a fresh checkout: every source newer than the build
    redate(path.join(tree, '.next'), -1);
  };
  beforeEach(() => {
    tree = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-start-tree-'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-start-data-'));
  });
  afterEach(() => {
    fs.rmSync(tree, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('in a development checkout rebuilds when a source changed', async () => {
    makeTree(true);
    fs.writeFileSync(path.join(tree, 'public/robots.txt'), 'User-agent: *\nDisallow: /\n');
    const changed = await start();
    expect(changed.stdout).toContain(
      'development checkout: building the site (public changed since the last build)',
    );
  });

  it('without the development packages serves a build of the same content, new file times, and refuses a stale or missing one', async () => {
    makeTree(false);
    const same = await start();
    expect(same.stdout).toContain(
      `production install (no development packages: node_modules/typescript is missing): ${SERVES_THE_BUILD}`,
    );
    const built = snapshot(tree);

    fs.writeFileSync(path.join(tree, 'src/app/page.tsx'), 'export default 2;\n');
    const stale = await start();
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('.next');
    expect(stale.stderr).toContain('src changed since the last build');
    expect(stale.stderr).toContain('npm run build');
    expect(stale.stdout).not.toContain('building');
    expect(snapshot(tree)).toEqual({ ...built, 'src/app/page.tsx': 'export default 2;\n' });

    fs.rmSync(path.join(tree, '.next'), { recursive: true });
    const missing = await start();
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no build yet');
    expect(fs.existsSync(path.join(tree, '.next'))).toBe(false);
  });
});
