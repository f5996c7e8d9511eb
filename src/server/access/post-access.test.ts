import { describe, expect, it } from 'vitest';
import { leadOf, postAccess } from './post-access';

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
