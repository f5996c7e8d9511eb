/**
 * The metered wall's one entry (docs/decisions/045-server-tiers.md,
 * docs/decisions/055-metered-wall.md): the allowance, the meter and which requests may spend it.
 */
export {
  METERED_MAX,
  forgetMeteredAllowance,
  meteredAllowance,
  readMeteredAllowance,
  setMeteredAllowance,
} from './allowance';
export {
  type MeterDecision,
  frontMeterDecision,
  meterLine,
  noteMeterDecision,
  noteReaderOpens,
  readerOpensPage,
} from './opens';
export { forgetMeteredReads, meterRead, type Metered, type MeteredPost } from './reads';
export { meteredConversions, type MeteredConversion } from './conversions';
