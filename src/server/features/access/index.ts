/**
 * The access feature's one entry: what the rest of src/server uses of it
 * (docs/decisions/045-server-tiers.md).
 */
export { viewerForUser, viewerFromHeaders } from './request-viewer';
export { postGate, type PostGate } from './post-gate';
