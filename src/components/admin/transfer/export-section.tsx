import styles from '@/components/admin/users/users.module.css';
import { SubmitButton } from '@/components/ui/button';
import { transferPaths } from '@/lib/transfer/status';
import { StaffSection } from '@/components/admin/staff-list-page';

type Props = {
  /** 「記事 63 件、…」, or '' when there is nothing yet. */
  contents: string;
};

/** 書き出し: a GET form, so the download starts without JavaScript and the page stays. */
export function ExportSection({ contents }: Props) {
  return (
    <StaffSection id="export" title="書き出す">
      <p className={styles.lead}>
        すべてのコンテンツ（公開中・下書き・予約公開、版の履歴を含む）と、メディアライブラリのファイルをまとめて
        1
        つのアーカイブ（.tar.gz）としてダウンロードします。バックアップや、別の環境への引っ越しに使えます。動画が多いと大きなファイルになります。
      </p>
      <p className={styles.hint}>
        {contents ? `現在の内容：${contents}` : 'この環境にはまだコンテンツがありません。'}
      </p>
      <form method="get" action={transferPaths.export} className={styles.actions}>
        <SubmitButton>アーカイブを書き出す</SubmitButton>
      </form>
    </StaffSection>
  );
}
