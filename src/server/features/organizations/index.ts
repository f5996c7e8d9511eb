/**
 * The organisations feature's one entry (法人プラン, docs/decisions/058-organizations.md): what
 * the rest of src/server uses of it (docs/decisions/045-server-tiers.md).
 */
export { addressDomain, normalizeAllowedDomain } from './domains';
export { mailAdminsOverdue, mailInvoiceSent } from './mails';
export { inviteAddress, removeMember } from './members';
export {
  noteSeatRead,
  noteSeatReadOf,
  readingReport,
  readingReportCsv,
  type ReportRow,
} from './report';
export { organizationSeat, seatStanding, type SeatReader, type SeatStanding } from './seats';
export { seatsSuspended } from './standing';
export {
  applySeatRenewal,
  createOrganization,
  isOrganizationAdmin,
  listMembers,
  listOrganizations,
  organizationById,
  organizationInput,
  organizationRevenue,
  organizationsAdministeredBy,
  setOrganizationAdmin,
  updateOrganization,
  type MemberRow,
  type Organization,
  type OrganizationInput,
  type OrganizationSummary,
} from './store';
