import 'server-only';
import { AppError } from '@/lib/errors';

/**
 * A backup or restore refused for a reason the operator can act on (the message is Japanese).
 * Only the admin CLI runs these, so the status is what an answer would carry: 400 for the
 * backup read, 409 for the state of this instance or the file system.
 */
export class BackupError extends AppError {
  constructor(message: string, options: { status?: 400 | 409 } = {}) {
    super(message, { status: options.status ?? 400, code: 'backup-refused' });
    this.name = 'BackupError';
  }
}
