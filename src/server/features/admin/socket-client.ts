import http from 'node:http';
import path from 'node:path';

/**
 * The client side of the admin socket (socket.ts serves it): where the socket is, what is
 * sent and answered, and the one request that sends a command. No `server-only` and no
 * aliased imports: the admin CLI and the e2e fixtures (under Playwright, outside the app's
 * bundler) both send their commands through this module.
 */

export const ADMIN_SOCKET = 'admin.sock';

export function adminSocketPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), ADMIN_SOCKET);
}

export type AdminSocketRequest = {
  command: string;
  args: Record<string, string | true | string[]>;
  actor: string;
};

export type AdminSocketReply =
  { ok: true; lines: string[] } | { ok: false; usage: boolean; error: string };

/** Sends one command to the server running on `dataDir` and resolves with its reply. */
export async function sendAdminCommand(
  dataDir: string,
  request: AdminSocketRequest,
): Promise<AdminSocketReply> {
  const socketPath = adminSocketPath(dataDir);
  const body = JSON.stringify(request);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath,
        path: '/run',
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text) as AdminSocketReply);
          } catch {
            reject(new Error(`unreadable answer from ${socketPath} (HTTP ${res.statusCode})`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
