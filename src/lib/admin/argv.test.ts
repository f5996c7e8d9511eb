import { ArgvError, parseArgv } from './argv';

describe('parseArgv', () => {
  it('parses flags the way the README shows them', () => {
    expect(parseArgv(['grant-plan', '--email', 'a@example.jp', '--days=30', '--dry-run'])).toEqual({
      command: 'grant-plan',
      args: { email: 'a@example.jp', days: '30', 'dry-run': true },
    });
    expect(() => parseArgv(['x', 'stray'])).toThrow(ArgvError);
  });

  it('collects a flag given more than once, in order', () => {
    expect(
      parseArgv(['org-create', '--domain', 'a.jp', '--domain=b.jp', '--domain', 'c.jp']),
    ).toEqual({
      command: 'org-create',
      args: { domain: ['a.jp', 'b.jp', 'c.jp'] },
    });
  });
});
