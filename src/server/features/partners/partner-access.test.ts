import { describe, expect, it } from 'vitest';
import {
  type PartnerActor,
  canActForPartner,
  canPreviewListing,
  canRunPartnerProgramme,
  partnerActorOf,
  partnerOfWriter,
  submissionRefusal,
} from './partner-access';

// The partner rules as a truth table: every kind of actor against partner A's screens and
// listings. "Other" is a member of partner B; "free" and "paid" are members of no partner
// (a plan changes nothing here).
const ACTORS: Record<string, PartnerActor> = {
  anonymous: partnerActorOf(null),
  free: partnerActorOf({ role: 'member', partnerId: '' }),
  paid: partnerActorOf({ role: 'member', partnerId: '' }),
  other: partnerActorOf({ role: 'member', partnerId: 'partner-b' }),
  own: partnerActorOf({ role: 'member', partnerId: 'partner-a' }),
  editor: partnerActorOf({ role: 'editor', partnerId: '' }),
  admin: partnerActorOf({ role: 'admin', partnerId: 'partner-b' }),
};

const TABLE: [actor: string, programme: boolean, actForA: boolean, writesFor: string | null][] = [
  ['anonymous', false, false, null],
  ['free', false, false, null],
  ['paid', false, false, null],
  ['other', false, false, 'partner-b'],
  ['own', false, true, 'partner-a'],
  ['editor', true, true, null],
  ['admin', true, true, null],
];

describe('the partner rules', () => {
  it.each(TABLE)(
    '%s: programme %s, acts for A %s, writes for %s',
    (name, programme, actForA, writesFor) => {
      const actor = ACTORS[name]!;
      expect(canRunPartnerProgramme(actor)).toBe(programme);
      expect(canActForPartner(actor, 'partner-a')).toBe(actForA);
      expect(canPreviewListing(actor, { partnerId: 'partner-a' })).toBe(actForA);
      expect(partnerOfWriter(actor)).toBe(writesFor);
    },
  );

  it('never matches an empty partner id: a member of no partner is no member of ""', () => {
    expect(canActForPartner(ACTORS.free!, '')).toBe(false);
    expect(canPreviewListing(ACTORS.free!, { partnerId: '' })).toBe(false);
    expect(canActForPartner(ACTORS.editor!, '')).toBe(true);
  });
});

describe('submissionRefusal', () => {
  const contract = { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 3 };
  // 2026-11-24 10:00 in Tokyo.
  const now = new Date('2026-11-24T01:00:00Z');

  it('lets a partner within its contract and quota submit', () => {
    expect(submissionRefusal(contract, 2, now)).toBeNull();
    expect(submissionRefusal({ ...contract, listingQuota: null }, 99, now)).toBeNull();
    expect(submissionRefusal({ ...contract, contractEnd: null }, 0, now)).toBeNull();
  });

  it('refuses before the contract starts, after it ends, and at the quota', () => {
    expect(submissionRefusal({ ...contract, contractStart: null }, 0, now)).toBe('no-contract');
    expect(submissionRefusal({ ...contract, contractStart: '2026-11-25' }, 0, now)).toBe(
      'no-contract',
    );
    expect(submissionRefusal({ ...contract, contractEnd: '2026-11-23' }, 0, now)).toBe(
      'contract-ended',
    );
    expect(submissionRefusal(contract, 3, now)).toBe('quota-reached');
  });

  it('counts days in Japan, the first and last day included', () => {
    // 15:30 UTC on the 23rd is 00:30 on the 24th in Tokyo.
    const lateUtc = new Date('2026-11-23T15:30:00Z');
    expect(submissionRefusal({ ...contract, contractStart: '2026-11-24' }, 0, lateUtc)).toBeNull();
    expect(submissionRefusal({ ...contract, contractEnd: '2026-11-24' }, 0, now)).toBeNull();
    expect(
      submissionRefusal({ ...contract, contractEnd: '2026-11-23T20:00:00Z' }, 0, now),
    ).toBeNull();
  });
});
