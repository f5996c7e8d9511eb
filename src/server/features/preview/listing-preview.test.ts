import { describe, expect, it } from 'vitest';
import type { PartnerActor } from '@/server/features/partners/partner-access';
import { jobPreviewDecision } from './listing-preview';

/** Who sees what at /jobs/preview/{id}: the listing's own partner and staff; nobody else. */

const ANONYMOUS: PartnerActor = { kind: 'anonymous' };
const READER: PartnerActor = { kind: 'member', partnerId: '' };
const OWN: PartnerActor = { kind: 'member', partnerId: 'acme' };
const OTHER: PartnerActor = { kind: 'member', partnerId: 'rival' };
const STAFF: PartnerActor = { kind: 'staff' };
const LISTING = { partnerId: 'acme' };
const ID = 'job-abcdefghijkl';

const decide = (actor: PartnerActor, listing: { partnerId: string } | null, draftKey?: string) =>
  jobPreviewDecision({ contentId: ID, draftKey: draftKey ?? null, actor, listing });

describe('the job preview', () => {
  it('shows a listing to the members of its partner and to staff', () => {
    expect(decide(OWN, LISTING)).toEqual({ kind: 'listing' });
    expect(decide(STAFF, LISTING)).toEqual({ kind: 'listing' });
  });

  it('answers not found to anyone else, whether the listing exists or not', () => {
    for (const actor of [ANONYMOUS, READER, OTHER]) {
      expect(decide(actor, LISTING)).toEqual({ kind: 'not-found' });
      expect(decide(actor, null)).toEqual({ kind: 'not-found' });
    }
    expect(decide(OWN, null)).toEqual({ kind: 'not-found' });
  });

  it('hands a draft key to the editors’ preview route, which checks it', () => {
    expect(decide(ANONYMOUS, null, 'k3y/+')).toEqual({
      kind: 'draft-key',
      location: `/api/preview/jobs/${ID}?draftKey=k3y%2F%2B`,
    });
  });

  it('sends staff without a key to the editors’ draft of an item that is not a listing', () => {
    expect(decide(STAFF, null)).toEqual({ kind: 'draft-key', location: `/api/preview/jobs/${ID}` });
  });
});
