import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DatabaseAvailability,
  PROBE_FIRST_DELAY_MS,
  PROBE_MAX_DELAY_MS,
  PROBE_TIMEOUT_MS,
  isOutageError,
} from './availability';

/** An error as pg or Node gives it: a message and a code. */
const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isOutageError', () => {
  it.each([
    ['ECONNREFUSED', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', withCode('ECONNRESET', 'read ECONNRESET')],
    ['ETIMEDOUT', withCode('ETIMEDOUT')],
    ['EHOSTUNREACH', withCode('EHOSTUNREACH')],
    ['ENOTFOUND', withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND db')],
    [
      'admin shutdown 57P01',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['crash shutdown 57P02', withCode('57P02')],
    ['cannot connect now 57P03', withCode('57P03', 'the database system is starting up')],
    ['class 08 connection failure', withCode('08006')],
    ['class 08 protocol violation', withCode('08P01')],
    ['pg losing its socket', new Error('Connection terminated unexpectedly')],
    ['pg-pool connect timeout', new Error('Connection terminated due to connection timeout')],
    [
      'wrapped by drizzle',
      new Error('Failed query: select 1', { cause: withCode('ECONNREFUSED') }),
    ],
    ['both addresses of localhost refused', new AggregateError([withCode('ECONNREFUSED')], 'x')],
  ])('%s is an outage', (_name, error) => {
    expect(isOutageError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601', 'syntax error at or near "selct"')],
    ['a wrong password', withCode('28P01', 'password authentication failed for user "app"')],
    ['a missing database', withCode('3D000', 'database "app" does not exist')],
    ['too many connections', withCode('53300')],
    ['a statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['our own pool closing', new Error('Connection terminated')],
    ['a full pool', new Error('timeout exceeded when trying to connect')],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_name, error) => {
    expect(isOutageError(error)).toBe(false);
  });

  it('does not loop on a cause that points to itself', () => {
    const error = new Error('odd') as Error & { cause?: unknown };
    error.cause = error;
    expect(isOutageError(error)).toBe(false);
  });
});

describe('DatabaseAvailability', () => {
  let probe: ReturnType<typeof vi.fn<() => Promise<void>>>;
  let log: ReturnType<typeof vi.fn<(line: string) => void>>;
  let availability: DatabaseAvailability;

  beforeEach(() => {
    vi.useFakeTimers();
    probe = vi.fn<() => Promise<void>>();
    log = vi.fn<(line: string) => void>();
    availability = new DatabaseAvailability({ probe, log });
  });
  afterEach(() => {
    availability.stop();
    vi.useRealTimers();
  });

  it('is up until an outage error, and ignores other errors', () => {
    expect(availability.available).toBe(true);
    availability.observe(withCode('23505'));
    expect(availability.available).toBe(true);
    availability.observe(withCode('ECONNREFUSED'));
    expect(availability.available).toBe(false);
    expect(log).toHaveBeenCalledOnce();
    expect(log.mock.calls[0]![0]).toContain('ECONNREFUSED');
  });

  it('probes 1 s after going down, then every 2 s at most, and comes up on the first answer', async () => {
    probe.mockRejectedValue(withCode('ECONNREFUSED'));
    availability.observe(withCode('ECONNREFUSED'));

    await vi.advanceTimersByTimeAsync(PROBE_FIRST_DELAY_MS - 1);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    // Then 2 s apart: the cap, however long it stays down.
    await vi.advanceTimersByTimeAsync(PROBE_MAX_DELAY_MS);
    expect(probe).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_DELAY_MS);
    expect(probe).toHaveBeenCalledTimes(12);
    expect(availability.available).toBe(false);

    probe.mockResolvedValue(undefined);
    await vi.advanceTimersByTimeAsync(PROBE_MAX_DELAY_MS);
    expect(availability.available).toBe(true);
    expect(log.mock.calls.at(-1)![0]).toMatch(/復旧しました .*after 25\.0 s/);
    // Up: no more probes.
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_DELAY_MS);
    expect(probe).toHaveBeenCalledTimes(13);
  });

  it('counts a probe that hangs as failed and keeps probing', async () => {
    probe.mockReturnValueOnce(new Promise(() => {})).mockResolvedValue(undefined);
    availability.observe(withCode('57P01'));
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_DELAY_MS + PROBE_TIMEOUT_MS - 1);
    expect(availability.available).toBe(false);
    await vi.advanceTimersByTimeAsync(1 + PROBE_MAX_DELAY_MS);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(availability.available).toBe(true);
  });

  it('runs one probe cycle however many errors arrive while down', async () => {
    probe.mockRejectedValue(withCode('ECONNREFUSED'));
    for (let i = 0; i < 50; i++) availability.observe(withCode('ECONNRESET'));
    await vi.advanceTimersByTimeAsync(PROBE_FIRST_DELAY_MS);
    expect(probe).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledOnce();
  });

  it('stops probing on shutdown', async () => {
    probe.mockRejectedValue(withCode('ECONNREFUSED'));
    availability.observe(withCode('ECONNREFUSED'));
    availability.stop();
    await vi.advanceTimersByTimeAsync(10 * PROBE_MAX_DELAY_MS);
    expect(probe).not.toHaveBeenCalled();
  });
});
