import { describe, expect, it } from 'vitest';
import { accessLabel, accessLevelOf, levelOfStep, remainingCharsLabel } from './access-label';

describe('accessLevelOf', () => {
  it('is open for a public-preview item of any type', () => {
    expect(accessLevelOf({ type: 'posts', isPublicPreview: true, inFreePlan: false })).toBe('open');
    expect(accessLevelOf({ type: 'audios', isPublicPreview: true })).toBe('open');
    expect(accessLevelOf({ type: 'movies', isPublicPreview: true })).toBe('open');
  });

  it('is members for a post a free account opens, and for コネクト', () => {
    expect(accessLevelOf({ type: 'posts', isPublicPreview: false, inFreePlan: true })).toBe(
      'members',
    );
    expect(accessLevelOf({ type: 'connect' })).toBe('members');
  });

  it('is paid for every other post, audio and movie', () => {
    expect(accessLevelOf({ type: 'posts', isPublicPreview: false, inFreePlan: false })).toBe(
      'paid',
    );
    expect(accessLevelOf({ type: 'audios', isPublicPreview: false })).toBe('paid');
    expect(accessLevelOf({ type: 'movies', isPublicPreview: false })).toBe('paid');
  });
});

describe('accessLabel', () => {
  it('gives one word per level, never the same word for two', () => {
    expect(accessLabel('open')).toMatchObject({ text: '無料公開', variant: 'open' });
    expect(accessLabel('members')).toMatchObject({ text: '会員限定', variant: 'members' });
    expect(accessLabel('paid')).toMatchObject({ text: '有料会員限定', variant: 'paid' });
  });

  it('matches what a paywall offers', () => {
    expect(accessLabel(levelOfStep('sign-up')).text).toBe('会員限定');
    expect(accessLabel(levelOfStep('subscribe')).text).toBe('有料会員限定');
  });
});

describe('remainingCharsLabel', () => {
  it.each([
    [3_172, '残り約3,200文字（約6分）'],
    [3_149, '残り約3,100文字（約6分）'],
    [40, '残り約100文字（1分未満）'],
    [151, '残り約200文字（1分未満）'],
    [9_949, '残り約9,900文字（約20分）'],
    [12_499, '残り約12,000文字（約25分）'],
    [12_500, '残り約13,000文字（約25分）'],
  ])('%d characters → %s', (chars, label) => {
    expect(remainingCharsLabel(chars)).toBe(label);
  });

  it('says nothing when no text is behind the paywall', () => {
    expect(remainingCharsLabel(0)).toBeNull();
    expect(remainingCharsLabel(Number.NaN)).toBeNull();
  });
});
