import 'server-only';
import { AppError } from '@/lib/errors';

/**
 * An import or export refused for a reason the admin can act on (the message is Japanese):
 * 400 for what was sent (an archive, a microCMS answer), 409 for the state of this instance
 * (another import running, content already here).
 */
export class TransferError extends AppError {
  constructor(message: string, options: { status?: 400 | 409; code?: string } = {}) {
    super(message, { status: options.status ?? 400, code: options.code ?? 'transfer-refused' });
    this.name = 'TransferError';
  }
}
