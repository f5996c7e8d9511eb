import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { queryRows } from '@/server/platform/db/client';
import { testDatabase } from '@test-support/route-tests';
import { addReaders } from '@test-support/newsletter';
import { type SmtpSink, startSmtpSink } from '@test-support/smtp-sink';
import { type ClaimedLetter, type DeliveryOptions, deliverRound } from './delivery';
import { smtpLetterTransport } from './letter-transport';
import { newsletterSendStatus, queueNewsletter } from './queue';
import { createContent } from '@/server/services/cms/writes';

// Two senders (two instances' claimers) work through one send on one database, handing letters
// to a real SMTP server (smtp-server, over nodemailer's pooled transport): every reader gets
// exactly one letter. On PostgreSQL the claims really race (FOR UPDATE SKIP LOCKED); on PGlite
// they interleave at every await.

const READERS = 60;
const database = testDatabase({ global: false });
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink({
    // One temporary refusal: retried later by whichever sender claims it then.
    refuse: (() => {
      let refused = false;
      return (to: string) => {
        if (to !== 'reader-7@example.jp' || refused) return null;
        refused = true;
        return { code: 451, message: '4.3.0 try again' };
      };
    })(),
  });
  await addReaders(
    database.db,
    Array.from({ length: READERS }, (_, i) => ({
      id: `reader-${i}`,
      plan: i % 3 ? undefined : 'active',
    })),
  );
  await createContent(database.db, findEndpoint('posts')!, {
    id: 'twice',
    body: { title: '二重送信しない' },
    status: 'publish',
  });
});

afterAll(async () => {
  await sink.close();
});

describe('two senders on one queue', () => {
  it('deliver each letter exactly once', async () => {
    const { sendId, queued } = await queueNewsletter(database.db, {
      contentId: 'twice',
      segment: 'all',
      requestedBy: null,
    });
    expect(queued).toBe(READERS);
    let clock = Date.now();
    const compose = (letter: ClaimedLetter) =>
      Promise.resolve({
        to: letter.email,
        subject: `二重送信しない (${letter.audience})`,
        text: 'body',
        html: '<p>body</p>',
        headers: { 'X-Letter-Id': letter.id },
      });
    // Letters are marked `sending` a chunk at a time: never more than `concurrency` at once per
    // sender, the most a crash can leave uncertain.
    let mostSending = 0;
    const senders = ['instance-a', 'instance-b'].map((senderId) => {
      const smtp = smtpLetterTransport(sink.url, {
        from: 'axis <news@example.jp>',
        maxConnections: 2,
      });
      const options: DeliveryOptions = {
        senderId,
        compose,
        transport: {
          send: async (message) => {
            const [row] = await queryRows<{ n: number }>(
              database.db,
              sql`SELECT count(*)::int AS n FROM newsletter_letters
                  WHERE status = 'sending' AND claimed_by = ${senderId}`,
            );
            mostSending = Math.max(mostSending, row!.n);
            await smtp.send(message);
          },
          close: smtp.close,
        },
        ratePerSecond: 100_000,
        batchSize: 7,
        concurrency: 3,
        now: () => new Date(clock),
        sleep: () => Promise.resolve(),
      };
      return options;
    });
    try {
      for (let round = 0; round < 40; round++) {
        const results = await Promise.all(senders.map((s) => deliverRound(database.db, s)));
        if (results.every((r) => r.claimed === 0)) {
          const left = await newsletterSendStatus(database.db, sendId);
          if (left.queued === 0) break;
          clock += 3_600_000; // the refused letter's retry time
        }
      }
    } finally {
      for (const s of senders) s.transport.close?.();
    }
    expect(mostSending).toBeGreaterThan(1);
    expect(mostSending).toBeLessThanOrEqual(3);
    expect(await newsletterSendStatus(database.db, sendId)).toMatchObject({
      sent: READERS,
      queued: 0,
      sending: 0,
      failed: 0,
      uncertain: 0,
    });
    const counts = sink.countsByAddress();
    expect(counts.size).toBe(READERS);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const ids = sink.messages.map((m) => /X-Letter-Id: (\S+)/i.exec(m.headers)?.[1]);
    expect(new Set(ids).size).toBe(READERS);
  });
});
