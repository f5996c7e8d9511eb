import { describe, expect, it } from 'vitest';
import { LEAD_MAX_CHARS as SERVER_MAX, leadOf } from './lead';
import {
  LEAD_MAX_CHARS,
  LEAD_NOTES,
  hasMembersDividerHtml,
  leadRuleNote,
} from '@/lib/access/lead-rule';

describe('the lead rule the editor is told', () => {
  it('sees the divider exactly where the access policy does', () => {
    const after = `<p>${'会員だけの段落。'.repeat(80)}</p>`;
    for (const [html, divider] of [
      ['<hr data-members-divider="">', true],
      ['<hr data-members-divider />', true],
      ['<HR DATA-MEMBERS-DIVIDER>', true],
      ['<hr class="x" data-members-divider="no">', true],
      ['<hr>', false],
      ['<hr data-members-divider-x>', false],
      ['<p data-members-divider>見せかけ</p>', false],
      ['<hr class="members-divider">', false],
    ] as const) {
      const body = `<p>導入。</p>${html}${after}`;
      expect(hasMembersDividerHtml(body), html).toBe(divider);
      // The policy agrees: with the divider the lead is the introduction alone.
      expect(leadOf(body) === '<p>導入。</p>', html).toBe(divider);
    }
    expect(LEAD_MAX_CHARS).toBe(SERVER_MAX);
  });

  it('names the rule for the gated field of each kind, and says when everyone reads it all', () => {
    const withDivider = { body: '<p>a</p><hr data-members-divider=""><p>b</p>' };
    expect(leadRuleNote('posts', 'body', withDivider)).toBe(LEAD_NOTES.divider);
    expect(leadRuleNote('posts', 'body', { body: '<p>a</p>' })).toBe(LEAD_NOTES.noDivider);
    expect(leadRuleNote('posts', 'body', { body: '' })).toContain('約300文字');
    expect(leadRuleNote('posts', 'body', { ...withDivider, isPublicPreview: true })).toBe(
      LEAD_NOTES.open,
    );
    expect(leadRuleNote('connect', 'body', { ...withDivider, isPublicPreview: true })).toBe(
      LEAD_NOTES.divider,
    );
    expect(leadRuleNote('audios', 'transcript', {})).toBe(LEAD_NOTES.noDivider);
    expect(leadRuleNote('posts', 'description', withDivider)).toBeNull();
    expect(leadRuleNote('jobs', 'body', withDivider)).toBeNull();
  });
});
