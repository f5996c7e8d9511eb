import { describe, expect, it } from 'vitest';
import { GET as privateFeed } from './[token]/feed.xml/route';
import { GET as privateFile, HEAD as privateFileHead } from './[token]/episodes/[file]/route';
import { GET as publicFile } from './episodes/[file]/route';

/**
 * The podcast routes hand their path segments to the podcast feature
 * (src/server/features/podcast/podcast.integration.test.ts has the database cases): what is no
 * token is refused before anything is read, and never kept by a cache.
 */

const SITE = 'http://localhost:3000';

describe('the podcast routes', () => {
  it('refuse what is no token with 403, private and unstored, for the feed and a file', async () => {
    for (const token of ['short', `${'A'.repeat(32)}=`, 'A'.repeat(33), '..']) {
      const feed = await privateFeed(new Request(`${SITE}/podcast/${token}/feed.xml`), {
        params: Promise.resolve({ token }),
      });
      expect(feed.status).toBe(403);
      expect(feed.headers.get('cache-control')).toBe('private, no-store');
      expect(await feed.text()).toContain('無効');
      for (const handler of [privateFile, privateFileHead]) {
        const file = await handler(new Request(`${SITE}/podcast/${token}/episodes/a.mp3`), {
          params: Promise.resolve({ token, file: 'a.mp3' }),
        });
        expect(file.status).toBe(403);
      }
    }
  });

  it('answer a file name that is not `<id>.<ext>` with 404', async () => {
    for (const file of ['a', '.mp3', 'a.mp3.exe', '%2e%2e.mp3', 'a b.mp3']) {
      const answer = await publicFile(new Request(`${SITE}/podcast/episodes/x`), {
        params: Promise.resolve({ file }),
      });
      expect(answer.status, file).toBe(404);
    }
  });
});
