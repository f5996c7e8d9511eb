import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

/**
 * A local SMTP server (the smtp-server package) that accepts every message on 127.0.0.1 and
 * records who it was for, its envelope sender and its headers. `refuse` answers a recipient with a reply code
 * instead (e.g. 451 once, to test retries). Used by the newsletter tests and the bench.
 */

export type SunkMessage = { to: string; from: string; headers: string; size: number };

export type SmtpSink = {
  url: string;
  port: number;
  messages: SunkMessage[];
  /** How many messages each address received. */
  countsByAddress: () => Map<string, number>;
  close: () => Promise<void>;
};

export async function startSmtpSink(
  options: {
    refuse?: (to: string) => { code: number; message: string } | null;
    /** Keep no headers, only counts (the bench's 10,000 letters). */
    countOnly?: boolean;
    /** Wait this long before accepting each message (a slower server: time to kill a sender). */
    delayMs?: number;
    port?: number;
  } = {},
): Promise<SmtpSink> {
  const messages: SunkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const refusal = options.refuse?.(address.address);
      if (!refusal) return callback();
      const error = new Error(refusal.message) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      callback(error);
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (!options.countOnly && size < 64 * 1024) chunks.push(chunk);
      });
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = options.countOnly ? '' : raw.split(/\r?\n\r?\n/, 1)[0]!;
        const accept = () => {
          for (const rcpt of session.envelope.rcptTo)
            messages.push({
              to: rcpt.address.toLowerCase(),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              headers,
              size,
            });
          callback();
        };
        if (options.delayMs) setTimeout(accept, options.delayMs);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    countsByAddress: () => {
      const counts = new Map<string, number>();
      for (const m of messages) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
      return counts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
