import { PendingSubmit } from './pending-submit.client';
import { transferPaths } from '@/lib/transfer/status';
import { InputRow } from '@/components/admin/users/form-fields';
import { type ImportFormProps, ImportFormSection } from './import-form-parts';
import own from './transfer.module.css';

const FILE_ID = 'transfer-archive';

/** The archive upload: a plain multipart form, so it works without JavaScript. */
export function ArchiveImportForm({ state }: { state: ImportFormProps }) {
  return (
    <ImportFormSection
      id="import-archive"
      title="アーカイブから取り込む"
      lead="このサイトで書き出したアーカイブを、コンテンツが 1 件もない環境に取り込みます。すべての項目を確認してから保存し、途中で問題が見つかったときは何も取り込みません。既存のデータとの統合（マージ）はできません。"
      form={{ action: transferPaths.importArchive, encType: 'multipart/form-data' }}
      state={state}
      submit={
        <PendingSubmit pendingText="アーカイブを送信して取り込んでいます。完了するまでこのページを開いたままにしてください。">
          アーカイブを取り込む
        </PendingSubmit>
      }
    >
      <InputRow
        id={FILE_ID}
        name="archive"
        label="アーカイブ（.tar.gz）"
        hint="大きなファイルは送信に時間がかかります。完了するまでこのページを開いたままにしてください。"
        error={state.fieldErrors.archive}
        type="file"
        accept=".tar.gz,.tgz,application/gzip"
        required
        className={own.file}
      />
    </ImportFormSection>
  );
}
