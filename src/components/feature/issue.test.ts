import { currentIssue, issueDate, issueNumberLabel } from './issue';

describe('feature issues', () => {
  it('leads with the issue editors marked as current, not simply the newest', () => {
    const issues = [
      { id: 'no107', isFeatured: false },
      { id: 'no106', isFeatured: true },
      { id: 'no105', isFeatured: false },
    ];
    expect(currentIssue(issues)?.id).toBe('no106');
  });

  it('leads with the newest issue when none is marked, and with none when there are none', () => {
    expect(
      currentIssue([
        { id: 'no107', isFeatured: false },
        { id: 'no106', isFeatured: false },
      ])?.id,
    ).toBe('no107');
    expect(currentIssue([])).toBeUndefined();
  });

  it('names an issue by its number only when it has one', () => {
    expect(issueNumberLabel({ issueNumber: 106 })).toBe('No.106');
    expect(issueNumberLabel({})).toBeNull();
  });

  it('dates an issue by its publication, else its creation', () => {
    expect(
      issueDate({ createdAt: '2026-01-01T00:00:00Z', publishedAt: '2026-02-01T00:00:00Z' }),
    ).toBe('2026-02-01T00:00:00Z');
    expect(issueDate({ createdAt: '2026-01-01T00:00:00Z' })).toBe('2026-01-01T00:00:00Z');
  });
});
