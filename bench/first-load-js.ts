/**
 * First-load JavaScript: every script a page's HTML loads, gzip -9, and the framework's floor
 * to compare it with (bench/bare-app: an App Router site of one layout, one page, one link,
 * built by the same Next.js in a throwaway directory).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { freePort, root } from './lib';

/** Bytes (gzip -9) of the scripts the page at `url` loads; `nomodule` polyfills are skipped. */
export async function firstLoadJsBytes(url: string): Promise<number> {
  const page = await (await fetch(url)).text();
  const sources = new Set(
    [...page.matchAll(/<script([^>]*)\ssrc="([^"]+)"([^>]*)>/g)]
      .filter((m) => !/nomodule/i.test(m[1]! + m[3]!))
      .map((m) => m[2]!),
  );
  let bytes = 0;
  for (const src of sources) {
    const body = Buffer.from(await (await fetch(new URL(src, url))).arrayBuffer());
    bytes += zlib.gzipSync(body, { level: 9 }).length;
  }
  return bytes;
}

/** The package and everything it depends on, as installed in the project's node_modules. */
function installedClosure(names: string[]): Set<string> {
  const found = new Set<string>();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.pop()!;
    const manifest = path.join(root, 'node_modules', name, 'package.json');
    if (found.has(name) || !fs.existsSync(manifest)) continue;
    found.add(name);
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    for (const field of ['dependencies', 'optionalDependencies'])
      queue.push(...Object.keys((pkg[field] as Record<string, string> | undefined) ?? {}));
  }
  return found;
}

export type BareApp = {
  url: string;
  stop: () => void;
};

/**
 * Builds bench/bare-app, plus `files` (path in the app → text), with the project's Next.js
 * and starts it with `next start`; `remove` deletes the throwaway directory. Turbopack neither
 * follows a node_modules symlink out of the app's directory nor builds an app nested in this
 * project (it picks up the project's own files), so the app is copied out with hard links to
 * the packages it needs.
 */
export async function startBareApp(
  files: Record<string, string> = {},
  /** The server's process settings (Node flags and environment), to start it as the site runs. */
  settings: { nodeFlags?: string[]; env?: Record<string, string> } = {},
): Promise<BareApp & { dir: string; pid: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-bare-app-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.cpSync(path.join(root, 'bench/bare-app'), dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const modules = path.join(dir, 'node_modules');
    for (const name of installedClosure(['next', 'react', 'react-dom'])) {
      fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      execFileSync('cp', ['-al', path.join(root, 'node_modules', name), path.join(modules, name)]);
    }
    const next = path.join(modules, 'next/dist/bin/next');
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
    execFileSync(process.execPath, [next, 'build'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await freePort();
    const server = spawn(
      process.execPath,
      [...(settings.nodeFlags ?? []), next, 'start', '-p', String(port)],
      { cwd: dir, env: { ...env, ...settings.env }, stdio: 'ignore' },
    );
    const stop = () => {
      server.kill('SIGTERM');
      remove();
    };
    const url = `http://127.0.0.1:${port}/`;
    try {
      while (
        !(await fetch(url).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (server.exitCode !== null) throw new Error(`bare app exited with ${server.exitCode}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch (error) {
      stop();
      throw error;
    }
    return { url, stop, dir, pid: server.pid! };
  } catch (error) {
    remove();
    throw error;
  }
}

/** The first-load JavaScript of bench/bare-app's page: the framework's floor. */
export async function frameworkFloorBytes(): Promise<number> {
  const app = await startBareApp();
  try {
    return await firstLoadJsBytes(app.url);
  } finally {
    app.stop();
  }
}
