import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { StaffPageTitle } from '@/components/admin/staff-list-page';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { ArchiveImportForm } from '@/components/admin/transfer/archive-import-form';
import { type ImportFormProps, REFUSAL_ID } from '@/components/admin/transfer/import-form-parts';
import { ExportSection } from '@/components/admin/transfer/export-section';
import { MicroCmsImportForm } from '@/components/admin/transfer/microcms-import-form';
import { isRunning } from '@/lib/transfer/status';
import { TransferStatusLive } from '@/components/admin/transfer/transfer-status-live.client';
import styles from '@/components/admin/users/users.module.css';
import { doneMessage, flashFor, typedIn } from '@/lib/http/form-flash';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { requireAdmin } from '@/server/features/identity/session';
import { ARCHIVE_FORM, MICROCMS_FORM } from '@/server/features/transfer/http';
import {
  contentInventory,
  describeInventory,
  endpointLabels,
  notEmptyMessage,
} from '@/server/features/transfer/inventory';
import { currentTransfer } from '@/server/features/transfer/progress';

export const generateMetadata = gatedMetadata(
  requireAdmin,
  accountMetadata('取り込みと書き出し', '/admin/transfer'),
);

/**
 * Import and export (admins only; editors and everyone else see the 404 page): the whole
 * content service as one archive, an archive into an empty instance, and a hosted microCMS
 * into an empty instance, with the running import's progress.
 */
export default async function TransferPage() {
  await requireAdmin();
  const [inventory, received] = await Promise.all([contentInventory(await getDb()), readFlash()]);
  const status = currentTransfer();
  const running = isRunning(status);
  const refusal = notEmptyMessage(inventory);
  const microCmsFlash = flashFor(received, MICROCMS_FORM);
  const formState = (form: string): ImportFormProps => {
    const flash = flashFor(received, form);
    return {
      refusal,
      busy: running,
      fieldErrors: flash?.fieldErrors ?? {},
      // A failed import's reason is in the status panel already; the forms repeat only the rest.
      formError:
        flash?.message && flash.message !== status?.error && !doneMessage(flash)
          ? flash.message
          : null,
    };
  };
  const notice = doneMessage(received);

  return (
    <div className={adminStyles.page}>
      {/* Without JavaScript the page follows a running import by reloading itself. */}
      {running ? (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      ) : null}
      <StaffPageTitle title="取り込みと書き出し" />
      <p className={styles.lead}>
        サイトのコンテンツとメディアをまとめて書き出したり、空の環境に取り込んだりできます。取り込みと書き出しはすべて
        <Link href="/admin/audit">監査ログ</Link>に記録されます。
      </p>
      {notice ? (
        <p className={styles.notice} role="status">
          {notice}
        </p>
      ) : null}
      {status ? (
        <TransferStatusLive
          key={`${status.id}-${status.phase}`}
          initial={status}
          endpointLabels={endpointLabels()}
        />
      ) : null}
      <ExportSection contents={describeInventory(inventory)} />
      {refusal ? (
        <p className={styles.alert} id={REFUSAL_ID}>
          {refusal}
        </p>
      ) : null}
      <ArchiveImportForm state={formState(ARCHIVE_FORM)} />
      <MicroCmsImportForm
        state={formState(MICROCMS_FORM)}
        typedBaseUrl={typedIn(microCmsFlash, 'baseUrl') ?? ''}
      />
    </div>
  );
}
