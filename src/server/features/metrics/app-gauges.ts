import 'server-only';
import { isNotNull, max, sql } from 'drizzle-orm';
import type { Database } from '@/server/platform/db/client';
import { databaseAvailable } from '@/server/platform/db/availability';
import { billingWebhookEvents, cmsContents, mailOutbox } from '@/server/platform/db/schema';
import { gaugeOnScrape } from './metrics';

/**
 * The figures read at scrape time: the PostgreSQL connection pool, the mail outbox, billing
 * webhooks, and scheduled publishing (an overdue item means no scheduler is running).
 */
export function registerAppGauges(getDatabase: () => Promise<Database>): void {
  const db = async () => (await getDatabase()).db;
  gaugeOnScrape('db_available', '1 while the database answers, 0 during an outage.', [], (g) =>
    g.set(databaseAvailable() ? 1 : 0),
  );
  gaugeOnScrape(
    'db_pool_connections',
    'PostgreSQL pool connections by state (total, idle, waiting); absent on the embedded database.',
    ['state'],
    async (gauge) => {
      const stats = (await getDatabase()).poolStats?.();
      if (!stats) return;
      gauge.set({ state: 'total' }, stats.total);
      gauge.set({ state: 'idle' }, stats.idle);
      gauge.set({ state: 'waiting' }, stats.waiting);
    },
  );
  gaugeOnScrape(
    'mail_outbox_messages',
    'Mails in the outbox by status (stored: kept without SMTP, sent, failed).',
    ['status'],
    async (gauge) => {
      const rows = await (
        await db()
      )
        .select({ status: mailOutbox.status, count: sql<number>`count(*)::int` })
        .from(mailOutbox)
        .groupBy(mailOutbox.status);
      gauge.reset();
      for (const row of rows) gauge.set({ status: row.status }, Number(row.count));
    },
  );
  gaugeOnScrape(
    'billing_webhook_last_received_age_seconds',
    'Seconds since the last billing webhook event was received (absent before the first).',
    [],
    async (gauge) => {
      const [row] = await (
        await db()
      )
        .select({ last: max(billingWebhookEvents.receivedAt) })
        .from(billingWebhookEvents);
      if (row?.last) gauge.set((Date.now() - new Date(row.last).getTime()) / 1000);
    },
  );
  gaugeOnScrape(
    'content_scheduled_items',
    'Content items waiting to be published at a set time; `overdue`: over a minute late.',
    ['state'],
    async (gauge) => {
      const [row] = await (
        await db()
      )
        .select({
          waiting: sql<number>`count(*)::int`,
          overdue: sql<number>`(count(*) FILTER (WHERE scheduled_at < now() - interval '1 minute'))::int`,
        })
        .from(cmsContents)
        .where(isNotNull(cmsContents.scheduledAt));
      gauge.set({ state: 'waiting' }, Number(row?.waiting ?? 0));
      gauge.set({ state: 'overdue' }, Number(row?.overdue ?? 0));
    },
  );
}
