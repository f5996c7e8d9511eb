/**
 * The ceiling of the run: a plain Node http server in its own process (not sharing the load
 * generator's event loop) answering every request with the same bytes as the home page.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../lib';

const SERVE = `
const http = require('node:http');
const body = require('node:fs').readFileSync(process.env.BODY_FILE);
http
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\\n'));
`;

export async function plainServerProcess(body: Buffer, dir: string) {
  const file = path.join(dir, 'baseline.html');
  fs.writeFileSync(file, body);
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', SERVE], {
    env: { ...process.env, PORT: String(port), BODY_FILE: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`baseline server exited (${code})`)));
    child.stdout.once('data', () => resolve());
  });
  child.removeAllListeners('exit');
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
