/**
 * The podcast feature's one entry (docs/decisions/045-server-tiers.md): private podcast feeds
 * per reader and the public one (docs/decisions/062-private-podcast-feeds.md).
 */
export { PODCAST_FEED_PATH, REISSUED_MESSAGE, podcastFeedPost } from './account-http';
export { ARTWORK_PATH, PUBLIC_FEED_PATH, feedBase } from './feed';
export {
  CLOSED_MESSAGE,
  REVOKED_MESSAGE,
  episodeFileAnswer,
  type PodcastDeps,
  privateEpisodeResponse,
  privateFeedResponse,
  publicEpisodeResponse,
  publicFeedResponse,
} from './http';
export { FEED_TOKEN, feedOwner, feedTokenFor, reissueFeed, revokeFeedByStaff } from './tokens';
