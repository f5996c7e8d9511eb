import 'server-only';
import fs from 'node:fs';
import http from 'node:http';
import { z } from '@/lib/zod';
import type { Database } from '@/server/platform/db/client';
import { UsageError } from './command';
import { runAdminCommand } from './commands';
import { type AdminSocketReply, type AdminSocketRequest, adminSocketPath } from './socket-client';

/**
 * The embedded database can be open in one process only. While the server runs, the admin
 * CLI sends its command over this Unix socket (readable by the same OS user only) and the
 * server runs it on its own connection. The client side is socket-client.ts.
 */

const requestSchema: z.ZodType<AdminSocketRequest> = z.object({
  command: z.string().min(1).max(100),
  args: z.record(
    z.string(),
    z.union([z.string().max(10_000), z.literal(true), z.array(z.string().max(10_000)).max(100)]),
  ),
  actor: z.string().min(1).max(200),
});

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new UsageError('request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startAdminSocket(database: Database, dataDir: string): Promise<http.Server> {
  const socketPath = adminSocketPath(dataDir);
  fs.rmSync(socketPath, { force: true }); // left over from a process that is gone: we hold the lock
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: AdminSocketReply) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/run')
      return reply(404, { ok: false, usage: false, error: 'not found' });
    readBody(req)
      .then(async (text) => {
        const parsed = requestSchema.safeParse(JSON.parse(text));
        if (!parsed.success)
          return reply(400, { ok: false, usage: true, error: 'invalid request' });
        const { command, args, actor } = parsed.data;
        const lines = await runAdminCommand({ database, actor }, command, args);
        reply(200, { ok: true, lines });
      })
      .catch((error: unknown) => {
        const usage = error instanceof UsageError || error instanceof SyntaxError;
        const message = error instanceof Error ? error.message : String(error);
        if (!usage) console.error('[admin] command failed:', message);
        reply(usage ? 400 : 500, { ok: false, usage, error: message });
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.unref();
  process.once('exit', () => fs.rmSync(socketPath, { force: true }));
  return server;
}
