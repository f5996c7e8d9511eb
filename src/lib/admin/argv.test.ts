import { ArgvError, parseArgv } from './argv';

describe('parseArgv', () => {
  it('parses flags the way the README shows them', () => {
    expect(parseArgv(['grant-plan', '--email', 'a@example.jp', '--days=30', '--dry-run'])).toEqual({
      command: 'grant-plan',
      args: { email: 'a@example.jp', days: '30', 'dry-run': true },
    });
    expect(() => parseArgv(['x', 'stray'])).toThrow(ArgvError);
  });
});
