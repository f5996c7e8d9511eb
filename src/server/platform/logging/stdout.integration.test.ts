import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');

/**
 * The server's log is written to stdout asynchronously (logger.ts): a process that exits right
 * after logging (a failed start, the end of a shutdown) must still have every line out, whole.
 */
const CHILD = `
const { startLogging } = await import(process.env.LOGGING_MODULE);
const { logAnswer } = await import(process.env.REQUEST_LOG_MODULE);
startLogging({ LOG_LEVEL: 'info' });
const started = performance.now();
for (let i = 0; i < 3000; i++)
  logAnswer({ url: '/posts/p' + i + '?token=t', method: 'GET', headers: {} }, 200, started, 'r-' + i);
console.log('[shutdown] done');
process.exit(0);
`;

/** logger.ts and request-log.ts as one plain module (one logger's state), pino left outside. */
async function bundleLogging(): Promise<string> {
  const { build } = await import('esbuild');
  // Under node_modules, so that the bundle's `import 'pino'` finds the package.
  const outDir = fs.mkdtempSync(path.join(root, 'node_modules/.cache/axis-log-test-'));
  const outfile = path.join(outDir, 'logging.mjs');
  await build({
    stdin: {
      contents: "export * from './logger';\nexport * from './request-log';\n",
      resolveDir: import.meta.dirname,
      loader: 'ts',
    },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    conditions: ['react-server'],
    alias: { '@': path.join(root, 'src') },
    external: ['pino'],
    logLevel: 'error',
  });
  return pathToFileURL(outfile).href;
}

describe('the log on stdout', () => {
  it('has every line out, whole, when the process exits right after writing them', async () => {
    const bundled = await bundleLogging();
    onTestFinished(() => fs.rmSync(path.dirname(fileURLToPath(bundled)), { recursive: true }));
    const child = spawn(process.execPath, ['--input-type=module', '-e', CHILD], {
      cwd: root,
      env: { ...process.env, LOGGING_MODULE: bundled, REQUEST_LOG_MODULE: bundled },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    // 'close': the process has exited and its stdout has been read to the end.
    const code = await new Promise((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed).toHaveLength(3001);
    expect(parsed.slice(0, 3000).map((line) => line.path)).toEqual(
      Array.from({ length: 3000 }, (_, i) => `/posts/p${i}`),
    );
    expect(parsed.at(-1)).toMatchObject({ msg: 'done', component: 'shutdown', level: 'info' });
    expect(out).not.toContain('token=t');
  });
});
