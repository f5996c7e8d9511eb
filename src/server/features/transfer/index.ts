/**
 * The transfer feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { referencedKeys } from './archive-format';
export { contentInventory, describeInventory, isEmptyInventory, type Inventory } from './inventory';
export { normalizeBaseUrl } from './microcms/client';
export { exportWithAudit, runArchiveImport, startMicroCmsImport } from './service';
