import { SubmitButton } from '@/components/ui/button';
import { InputRow } from '@/components/admin/users/form-fields';
import { type ImportFormProps, ImportFormSection } from './import-form-parts';
import { transferPaths } from '@/lib/transfer/status';

type Props = { state: ImportFormProps; typedBaseUrl: string };

const URL_ID = 'transfer-microcms-url';
const KEY_ID = 'transfer-microcms-key';

/** The microCMS import: base URL and key, then the job runs on the server and this page follows it. */
export function MicroCmsImportForm({ state, typedBaseUrl }: Props) {
  return (
    <ImportFormSection
      id="import-microcms"
      title="microCMS から取り込む"
      lead="利用中の microCMS から、このサイトのコンテンツモデルにあるすべての API（記事、特集、執筆者、固定ページなど）を 1 ページ 100 件ずつ読み込みます。microCMS の利用制限を超えないよう間隔をあけて読み、混み合っているときは待ってから続けます。ID・作成日時・公開日時・参照はそのまま引き継ぎ、画像やファイルはこのサイトに保存し直して URL を置き換えます。空の環境にだけ取り込めます。"
      form={{ action: transferPaths.importMicroCms }}
      state={state}
      submit={<SubmitButton>取り込みを始める</SubmitButton>}
    >
      <InputRow
        id={URL_ID}
        name="baseUrl"
        label="API の URL"
        hint="例：https://your-service.microcms.io/api/v1"
        error={state.fieldErrors.baseUrl}
        type="url"
        inputMode="url"
        required
        maxLength={300}
        autoComplete="off"
        spellCheck={false}
        defaultValue={typedBaseUrl}
      />
      <InputRow
        id={KEY_ID}
        name="apiKey"
        label="API キー"
        hint="GET 権限のあるキーを入力してください。キーは取り込みの間だけ使い、保存も記録もしません。"
        error={state.fieldErrors.apiKey}
        type="password"
        required
        maxLength={200}
        autoComplete="off"
        spellCheck={false}
      />
    </ImportFormSection>
  );
}
