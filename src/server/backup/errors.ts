import 'server-only';

/** A backup or restore refused for a reason the operator can act on (the message is Japanese). */
export class BackupError extends Error {
  override name = 'BackupError';
}
