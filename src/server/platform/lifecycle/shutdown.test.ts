import { afterEach, describe, expect, it, vi } from 'vitest';
import { isShuttingDown, onShutdown, resetShutdownForTests, shutdown } from './shutdown';

afterEach(() => {
  resetShutdownForTests();
  vi.restoreAllMocks();
});

describe('shutdown', () => {
  it('runs the steps once, last registered first, then exits 0', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const ran: string[] = [];
    onShutdown('database', () => void ran.push('database'));
    onShutdown('http', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ran.push('http');
    });
    const exit = vi.fn();
    const first = shutdown('SIGTERM', { exit });
    const second = shutdown('SIGINT', { exit });
    expect(isShuttingDown()).toBe(true);
    await Promise.all([first, second]);
    expect(ran).toEqual(['http', 'database']);
    expect(exit.mock.calls).toEqual([[0]]);
  });

  it('runs the later steps when one fails', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ran: string[] = [];
    onShutdown('database', () => void ran.push('database'));
    onShutdown('http', () => {
      throw new Error('boom');
    });
    const exit = vi.fn();
    await shutdown('SIGTERM', { exit });
    expect(ran).toEqual(['database']);
    expect(error).toHaveBeenCalled();
    expect(exit.mock.calls).toEqual([[0]]);
  });

  it('exits 1 when the steps do not finish within the bound', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    onShutdown('stuck', () => new Promise(() => {}));
    const exit = vi.fn();
    void shutdown('SIGTERM', { exit, timeoutMs: 50 });
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(1));
  });
});
