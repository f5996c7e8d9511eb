/**
 * `npm run dev`: the site with the framework's hot reload, served through the same front server
 * and request pipeline as `npm start` (src/server/features/front/server.ts); what differs, and why, is in
 * docs/decisions/046-one-request-pipeline.md. Compiled to dist/server/dev.js and run by
 * scripts/launch.mjs, which compiles it again when a source changed: a change to the front
 * server's own modules takes a restart, the pages and what they import reload as they are saved.
 */
import { env } from '@/env';

// What `next dev` sets before loading the framework.
Object.assign(process.env, { NODE_ENV: 'development' });
// The cache cannot know that the code changed: every page is rendered on every load, so an
// edit shows at once. PAGE_CACHE=on tries the cache while developing.
process.env.PAGE_CACHE ??= 'off';

const { PORT, SITE_URL } = env();
const { serveSite } = await import('@/server/features/front/server');
// npm runs scripts in the project's root (this file runs compiled, from dist/server).
await serveSite({ dir: process.cwd(), port: PORT, dev: true });
console.log(`[dev] serving ${SITE_URL} on port ${PORT}`);
