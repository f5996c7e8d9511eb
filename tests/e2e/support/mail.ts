import { admin } from './admin';
import { E2E_SITE_URL } from './settings';

const HEADER = /^\d{4}-\d\d-\d\dT\S+Z {2}(\S+) {2}to=/;

/**
 * The link in the newest mail of a kind to an address, read from the outbox through the admin
 * CLI (no SMTP in the tests), pointed at the server under test instead of SITE_URL.
 */
export async function latestLink(to: string, kind: string, baseURL: string): Promise<string> {
  const lines = await admin('mail-outbox', '--to', to, '--full', '--limit', '20');
  let current: string | null = null;
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header) {
      current = header[1]!;
      continue;
    }
    const link = /https?:\/\/\S+/.exec(line)?.[0];
    if (current === kind && link) return link.replace(E2E_SITE_URL, baseURL);
  }
  throw new Error(`no ${kind} mail with a link to ${to}:\n${lines.join('\n')}`);
}
