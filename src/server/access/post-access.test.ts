import { describe, expect, it } from 'vitest';
import { type Viewer, connectAccess, leadOf, mediaAccess, postAccess } from './post-access';

const members = { id: 'p1', isPublicPreview: false };
const open = { id: 'p2', isPublicPreview: true };

describe('postAccess', () => {
  it('opens public-preview posts to everyone', () => {
    expect(postAccess({ kind: 'anonymous' }, open, [])).toEqual({ full: true });
  });
  it('keeps members-only posts from anonymous readers, asking them to sign up', () => {
    expect(postAccess({ kind: 'anonymous' }, members, ['p1'])).toEqual({
      full: false,
      reason: 'sign-up',
    });
  });
  it('opens the free-plan posts to signed-in free members, and all to paid members', () => {
    expect(postAccess({ kind: 'member', paid: false }, members, ['p1'])).toEqual({ full: true });
    expect(postAccess({ kind: 'member', paid: false }, members, ['p9'])).toEqual({
      full: false,
      reason: 'subscribe',
    });
    expect(postAccess({ kind: 'member', paid: true }, members, [])).toEqual({ full: true });
  });
  it('shows the whole draft in preview mode, and everything to staff', () => {
    expect(postAccess({ kind: 'preview' }, members, [])).toEqual({ full: true });
    expect(postAccess({ kind: 'staff' }, members, [])).toEqual({ full: true });
  });
});

const VIEWERS: Viewer[] = [
  { kind: 'anonymous' },
  { kind: 'member', paid: false },
  { kind: 'member', paid: true },
  { kind: 'staff' },
  { kind: 'preview' },
];

describe('mediaAccess (audio and movie files)', () => {
  it('plays a members’ item only for paid readers, staff and preview', () => {
    expect(VIEWERS.map((v) => mediaAccess(v, { isPublicPreview: false }).full)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(mediaAccess({ kind: 'anonymous' }, { isPublicPreview: false })).toEqual({
      full: false,
      reason: 'sign-up',
    });
    expect(mediaAccess({ kind: 'member', paid: false }, { isPublicPreview: false })).toEqual({
      full: false,
      reason: 'subscribe',
    });
  });
  it('plays a public-preview item for everyone', () => {
    expect(VIEWERS.every((v) => mediaAccess(v, { isPublicPreview: true }).full)).toBe(true);
  });
});

describe('connectAccess', () => {
  it('opens connect to every signed-in reader and to nobody else', () => {
    expect(VIEWERS.map((v) => connectAccess(v).full)).toEqual([false, true, true, true, true]);
  });
});

describe('postAccess truth table', () => {
  it('covers every viewer × public-preview × free-plan combination', () => {
    const rows = [];
    for (const viewer of VIEWERS)
      for (const isPublicPreview of [false, true])
        for (const inFreePlan of [false, true])
          rows.push(postAccess(viewer, { id: 'x', isPublicPreview }, inFreePlan ? ['x'] : []).full);
    // anonymous, free member, paid, staff, preview; each: [members,no-free],[members,free],[public,no-free],[public,free]
    expect(rows).toEqual([
      false,
      false,
      true,
      true,
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe('leadOf', () => {
  it('keeps what stands before the divider', () => {
    expect(leadOf('<p>一</p><p>二</p><p>三</p><hr><p>秘密</p>')).toBe(
      '<p>一</p><p>二</p><p>三</p>',
    );
  });
  it('keeps the first two blocks when there is no divider, never the rest', () => {
    const lead = leadOf('<h2>見出し</h2><p>導入</p><p>本文の続き</p>');
    expect(lead).toBe('<h2>見出し</h2><p>導入</p>');
    expect(lead).not.toContain('続き');
  });
  it('stops at about 300 characters of text', () => {
    const long = `<p>${'あ'.repeat(250)}</p>`;
    expect(leadOf(`${long}${long}<hr>`)).toBe(long);
  });
});
