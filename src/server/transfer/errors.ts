import 'server-only';

/** An import or export refused for a reason the admin can act on (the message is Japanese). */
export class TransferError extends Error {
  override name = 'TransferError';
}
