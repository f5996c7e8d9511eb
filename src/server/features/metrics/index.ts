/**
 * The metrics feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { countPageCache, gaugeOnScrape, timeRequest } from './metrics';
