/**
 * The seed feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { seedDemoContracts } from './demo-contracts';
export { copyDemoMedia, isContentEmpty, seedDemoContent } from './seed';
