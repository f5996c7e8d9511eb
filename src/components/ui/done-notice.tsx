import { Notice } from '@/components/account/account-page';
import { doneMessage } from '@/lib/http/form-flash';
import { readFlash } from '@/server/platform/http/read-flash';

/**
 * What was just done, said once on the page the reader was sent on to, rendered on the server
 * (the one-time message of src/lib/http/flash.ts): on an item's page, that the plan paid for a
 * moment ago has started and until when its trial runs (/api/billing/checkout-return).
 */
export async function DoneNotice() {
  const message = doneMessage(await readFlash());
  return message ? (
    <Notice>
      <p>{message}</p>
    </Notice>
  ) : null;
}
