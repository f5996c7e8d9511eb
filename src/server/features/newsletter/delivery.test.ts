import { describe, expect, it } from 'vitest';
import { classifySmtpError, pacer, recipientBounce, retryDelayMs } from './delivery';

describe('classifySmtpError', () => {
  it('retries a 4xx reply and an error from before the message left', () => {
    expect(classifySmtpError({ responseCode: 451 })).toBe('retry');
    expect(classifySmtpError({ responseCode: 421, command: 'DATA' })).toBe('retry');
    expect(classifySmtpError({ code: 'ECONNECTION' })).toBe('retry');
    expect(classifySmtpError({ code: 'EDNS' })).toBe('retry');
    expect(classifySmtpError({ code: 'ETIMEDOUT', command: 'CONN' })).toBe('retry');
  });

  it('fails a 5xx reply and a message built wrongly for good', () => {
    expect(classifySmtpError({ responseCode: 550 })).toBe('permanent');
    expect(classifySmtpError({ responseCode: 554, command: 'DATA' })).toBe('permanent');
    expect(classifySmtpError({ code: 'EENVELOPE' })).toBe('permanent');
  });

  it('calls anything that may have delivered the message uncertain', () => {
    expect(classifySmtpError({ code: 'ESOCKET', command: 'DATA' })).toBe('uncertain');
    expect(classifySmtpError({ code: 'ETIMEDOUT' })).toBe('uncertain');
    expect(classifySmtpError(new Error('?'))).toBe('uncertain');
    expect(classifySmtpError(undefined)).toBe('uncertain');
  });
});

describe('recipientBounce', () => {
  const rcpt = (response: string) => ({
    code: 'EENVELOPE',
    command: 'RCPT TO',
    responseCode: Number(response.slice(0, 3)),
    response,
  });

  it('is a 5xx reply to RCPT TO about the address', () => {
    expect(recipientBounce(rcpt('550 5.1.1 <x@example.jp>: No such user'))).toBe(
      '550 5.1.1 <x@example.jp>: No such user',
    );
    expect(recipientBounce(rcpt('552 5.2.2 Mailbox full'))).toBe('552 5.2.2 Mailbox full');
    expect(recipientBounce(rcpt('550 Unknown user'))).toBe('550 Unknown user');
  });

  it('is not a refusal of us, a temporary one, or one after the envelope', () => {
    expect(recipientBounce(rcpt('554 5.7.1 Relay access denied'))).toBeNull();
    expect(recipientBounce(rcpt('550 5.3.0 Mail system full'))).toBeNull();
    expect(recipientBounce(rcpt('530 Authentication required'))).toBeNull();
    expect(recipientBounce(rcpt('450 4.2.1 Mailbox busy'))).toBeNull();
    expect(recipientBounce({ ...rcpt('554 5.6.0 Message rejected'), command: 'DATA' })).toBeNull();
    expect(recipientBounce({ responseCode: 550 })).toBeNull();
  });
});

describe('retryDelayMs', () => {
  it('doubles from a minute up to six hours', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n))).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(retryDelayMs(20)).toBe(6 * 3_600_000);
  });
});

describe('pacer', () => {
  it('spaces starts by 1/rate, shared by concurrent callers', async () => {
    let t = 1_000;
    const waits: number[] = [];
    const pace = pacer(
      4,
      () => t,
      (ms) => {
        waits.push(ms);
        t += ms;
        return Promise.resolve();
      },
    );
    await Promise.all([pace(), pace(), pace()]);
    // The fake sleep moves the clock: each caller waits for its own slot.
    expect(waits).toEqual([250, 250]);
    expect(t).toBe(1_500);
    t += 10_000; // idle for a while: no burst is saved up beyond the next slot
    await pace();
    await pace();
    expect(waits).toEqual([250, 250, 250]);
  });
});
