import { singleton } from './singleton';

/**
 * Runs `task` after every earlier task under the same key in this process has finished, so
 * that read-then-write sequences on one record (a subscription re-read from the provider, then
 * stored) never interleave. Keys are dropped once their queue is empty.
 */
const queues = singleton('keyed-lock-queues', () => new Map<string, Promise<unknown>>());

export function withKeyLock<T>(key: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}
