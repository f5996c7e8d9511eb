import 'server-only';
import { randomUUID } from 'node:crypto';
import type { TransferStatus } from '@/lib/transfer/status';
import { singleton } from '@/lib/singleton';
import { TransferError } from './errors';

/**
 * The one import this server process runs at a time, and the last one's outcome, for the page
 * and its status route. In memory on purpose: a job belongs to the process that runs it (the
 * emptiness check inside the import's transaction keeps two instances from both importing).
 */

export type TransferProgress = TransferStatus;

const state = singleton('transfer-job', () => ({ current: null as TransferStatus | null }));

export function currentTransfer(): TransferStatus | null {
  return state.current ? structuredClone(state.current) : null;
}

export const BUSY_MESSAGE =
  '別の取り込みを実行中です。終わってから、もう一度お試しください。進み具合はこのページに表示されます。';

/** A new job's state, refusing while another runs. */
export function beginTransfer(kind: TransferStatus['kind'], source: string): TransferStatus {
  const running = state.current;
  if (running && running.phase !== 'done' && running.phase !== 'failed')
    throw new TransferError(BUSY_MESSAGE, { status: 409, code: 'transfer-busy' });
  const status: TransferStatus = {
    id: randomUUID(),
    kind,
    source,
    phase: 'counting',
    endpoint: null,
    items: { done: 0, total: 0 },
    media: { done: 0, total: 0 },
    warnings: 0,
    startedAt: new Date().toISOString(),
    finishedAt: null,
    result: null,
    error: null,
    warningList: [],
  };
  state.current = status;
  return status;
}

export function finishTransfer(
  status: TransferStatus,
  outcome:
    | { ok: true; result: NonNullable<TransferStatus['result']>; warnings: string[] }
    | { ok: false; error: string },
): void {
  status.finishedAt = new Date().toISOString();
  status.endpoint = null;
  if (outcome.ok) {
    status.phase = 'done';
    status.result = outcome.result;
    status.warningList = outcome.warnings;
    status.warnings = outcome.warnings.length;
  } else {
    status.phase = 'failed';
    status.error = outcome.error;
  }
}

/** Tests: forget the last job. */
export function resetTransferState(): void {
  state.current = null;
}
